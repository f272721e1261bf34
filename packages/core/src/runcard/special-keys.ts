/**
 * Keys of upstream n3fit runcards that partonfit reads differently: some have no effect here
 * (a warning), some ask for what partonfit does not do (an error, unless switched off), some
 * moved or were renamed (an error saying where they belong). Paths use `[]` for "every item".
 */
export interface SpecialKey {
  readonly path: string;
  readonly kind: 'no-effect' | 'unsupported' | 'moved';
  readonly reason: string;
}

const noEffect = (path: string, reason: string): SpecialKey => ({
  path,
  kind: 'no-effect',
  reason,
});
const unsupported = (path: string, reason: string): SpecialKey => ({
  path,
  kind: 'unsupported',
  reason,
});
const moved = (path: string, reason: string): SpecialKey => ({ path, kind: 'moved', reason });

const TOP_LEVEL_ONLY = ['trvlseed', 'nnseed', 'mcseed', 'genrep', 'save', 'load', 'parameters'];
const NNFIT_ONLY = ['seed', 'rnalgo', 'fitmethod', 'nmutants', 'paramtype', 'nnodes'];

export const SPECIAL_KEYS: readonly SpecialKey[] = [
  noEffect('debug', 'partonfit fits are always reproducible from their seeds'),
  noEffect('maxcores', 'the compute backend is chosen with --backend'),
  noEffect('parallel_models', 'partonfit always fits all replicas in one model'),
  noEffect('tensorboard', 'partonfit writes losses to chi2exps.log instead'),
  noEffect('save', "every replica's weights are always written to weights.h5"),
  ...NNFIT_ONLY.map((key) => noEffect(`fitting.${key}`, 'an nnfit-only key')),
  unsupported('load_weights_from_fit', "give the fit folder as 'load:' instead"),
  unsupported('double_precision', 'TensorFlow.js computes in float32 only'),
  unsupported('fiatlux', 'QED fits with a photon PDF are not supported yet'),
  unsupported('positivity_bound', 'polarised fits are not supported'),
  unsupported(
    'added_filter_rules',
    'custom cut rules are not supported yet; datacuts.q2min and w2min apply',
  ),
  unsupported(
    'drop_internal_rules',
    'custom cut rules are not supported yet; datacuts.q2min and w2min apply',
  ),
  unsupported(
    'filter_defaults',
    'custom cut rules are not supported yet; datacuts.q2min and w2min apply',
  ),
  unsupported('data_grouping', 'custom experiment groupings are not supported yet'),
  unsupported('separate_multiplicative', 'separate multiplicative pseudodata is not supported yet'),
  unsupported(
    'resample_negative_pseudodata',
    'resampling negative pseudodata is not supported yet',
  ),
  moved('sum_rules', 'partonfit reads it under fitting:, as fitting.sum_rules'),
  ...TOP_LEVEL_ONLY.map((key) =>
    moved(`fitting.${key}`, `should be the top-level key '${key}', not part of fitting`),
  ),
  moved('fitting.epochs', 'should appear only as parameters.epochs'),
  moved(
    'parameters.interpolation_points',
    'is no longer accepted; use parameters.feature_scaling_points',
  ),
  moved('parameters.pos_initial', 'is deprecated; use parameters.positivity.initial'),
  moved('parameters.pos_multiplier', 'is deprecated; use parameters.positivity.multiplier'),
  moved('dataset_inputs[].sys', 'is deprecated; use variant'),
  moved('positivity.posdatasets[].poslambda', 'is deprecated; use maxlambda'),
];
