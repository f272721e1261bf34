import { z } from 'zod';
import { FIT_BASIS_NAMES, findFitBasis } from '../flavours/fit-basis.js';
import { OBSERVABLE_OPERATIONS } from '../step-inputs/fk-tensors.js';
import {
  flag,
  nonNegativeNumber,
  numberBetween,
  oneOf,
  positiveInteger,
  positiveNumber,
  range,
  section,
  seed,
  text,
} from './schema-helpers.js';
import {
  ACTIVATIONS,
  INITIALIZERS,
  OPTIMIZER_LEARNING_RATES,
  OPTIMIZER_NAMES,
} from './setting-names.js';
import { hyperscanConfigSchema, kfoldSchema } from './hyperscan-schema.js';

/**
 * The scale-variation point prescriptions of `theorycovmatconfig.point_prescriptions`, as
 * validphys names them (the formulas are in `@partonfit/fktables`' `pointPrescription`).
 */
export const POINT_PRESCRIPTION_NAMES = [
  '3 point',
  '3f point',
  '3r point',
  '5 point',
  '5bar point',
  '7 point',
  '9 point',
] as const;

/** A point prescription's name. */
export type PointPrescriptionName = (typeof POINT_PRESCRIPTION_NAMES)[number];

export {
  ACTIVATIONS,
  INITIALIZERS,
  OPTIMIZER_LEARNING_RATES,
  OPTIMIZER_NAMES,
  type OptimizerName,
} from './setting-names.js';

/**
 * The widest dense layer a runcard may ask for. Replicas of one depth and activations train in
 * one network padded to the widest member's widths, so one very wide replica costs every other
 * replica of its group its width too.
 */
export const MAX_NODES_PER_LAYER = 1024;

/** Sum-rule modes; `true` in a runcard means `ALL`, `false` means `NONE`. */
export const SUM_RULE_MODES = ['ALL', 'MSR', 'VSR', 'ALLBUTCSR', 'NONE'] as const;

/** One entry of `dataset_inputs`. */
export const datasetInputSchema = section({
  dataset: text(),
  variant: text().optional(),
  frac: numberBetween(0, 1).default(1),
  weight: positiveNumber().default(1),
  cfac: z.array(text(), { error: 'expected a list of C-factor names' }).default([]),
  custom_group: text().optional(),
  /** partonfit: a self-contained npz bundle (FK table, x-grid, covariance, data). */
  bundle: text().optional(),
  /**
   * partonfit: the dataset's FK-table files, instead of finding them in the theory folder: a
   * list of files (one operand) or a list of lists (one list per operand, concatenated along
   * the data axis).
   */
  fktables: z
    .union([z.array(text()).min(1), z.array(z.array(text()).min(1)).min(1)], {
      error: 'expected a list of FK-table files, or a list of such lists (one per operand)',
    })
    .optional(),
  /** partonfit: how the operands of `fktables` combine (default NULL). */
  operation: oneOf(OBSERVABLE_OPERATIONS).optional(),
  /** partonfit: the commondata folder of this dataset's set, instead of `data_paths.commondata`. */
  commondata: text().optional(),
});

const lagrangeDataset = section({ dataset: text(), maxlambda: positiveNumber() });

const lagrangeSchedule = {
  initial: positiveNumber().optional(),
  multiplier: positiveNumber().optional(),
};

const optimizer = section({
  optimizer_name: oneOf(OPTIMIZER_NAMES),
  learning_rate: positiveNumber().optional(),
  clipnorm: positiveNumber().default(1.0),
}).transform((settings) => ({
  ...settings,
  learning_rate: settings.learning_rate ?? OPTIMIZER_LEARNING_RATES[settings.optimizer_name],
}));

const parameters = section({
  nodes_per_layer: z
    .array(
      positiveInteger().max(MAX_NODES_PER_LAYER, {
        error: `expected at most ${MAX_NODES_PER_LAYER} nodes (partonfit's widest layer)`,
      }),
      { error: 'expected a list of layer sizes' },
    )
    .min(1, { error: 'expected at least one layer' }),
  activation_per_layer: z.array(oneOf(ACTIVATIONS), {
    error: 'expected a list of activation names',
  }),
  initializer: oneOf(INITIALIZERS).default('glorot_normal'),
  optimizer,
  epochs: positiveInteger(),
  stopping_patience: numberBetween(0, 1),
  stopping_delta: nonNegativeNumber().default(0),
  threshold_chi2: positiveNumber().default(10),
  layer_type: oneOf(['dense']).default('dense'),
  dropout: numberBetween(0, 1).default(0),
  positivity: section({ ...lagrangeSchedule, threshold: positiveNumber().default(1e-6) }).prefault(
    {},
  ),
  integrability: section(lagrangeSchedule).prefault({}),
  feature_scaling_points: positiveInteger().optional(),
  regularizer: oneOf(['l1_l2']).optional(),
  regularizer_args: section({
    l1: nonNegativeNumber().default(0),
    l2: nonNegativeNumber().default(0),
  }).optional(),
});

/** Every key of the `parameters` section. */
export const PARAMETER_KEYS: ReadonlySet<string> = new Set(Object.keys(parameters.shape));

const basisFlavour = section({
  fl: text(),
  smallx: range(),
  largex: range().optional(),
  trainable: flag().default(true),
});

const sumRules = z
  .union([z.boolean(), z.string()], {
    error: `expected true, false or one of ${SUM_RULE_MODES.join(', ')}`,
  })
  .transform((mode, context) => {
    if (typeof mode === 'boolean') return mode ? 'ALL' : 'NONE';
    const upper = mode.toUpperCase();
    if ((SUM_RULE_MODES as readonly string[]).includes(upper))
      return upper as (typeof SUM_RULE_MODES)[number];
    context.addIssue({
      code: 'custom',
      message: `expected true, false or one of ${SUM_RULE_MODES.join(', ')}`,
      input: mode,
    });
    return z.NEVER;
  });

const fitting = section({
  fitbasis: text()
    .refine((name) => findFitBasis(name) !== undefined, {
      error: `expected one of ${FIT_BASIS_NAMES.join(', ')}`,
    })
    .transform((name) => findFitBasis(name)?.name ?? name),
  basis: z.array(basisFlavour, { error: 'expected a list of fitted flavours' }).min(1),
  sum_rules: sumRules.default('ALL'),
  savepseudodata: flag().default(true),
});

/**
 * `trial_specs` (n3fit 4.1.5): the replicas take their hyperparameters from the best trials of a
 * hyperparameter scan. `hyperscan` is the scan's folder (or its `tries.json`), absolute or
 * relative to the runcard; the first `thermalization` finished trials are skipped, the best
 * `number_of_trials` of the rest by loss are kept, and `override` forces settings on all of them
 * (upstream's trial columns: `optimizer`, `learning_rate`, `clipnorm`, `epochs`,
 * `stopping_patience`, `initial`, `multiplier`, `nodes_per_layer`, `activation_per_layer`,
 * `initializer`, `layer_type`, `dropout`).
 */
const trialSpecs = section({
  hyperscan: text(),
  thermalization: z
    .int({ error: 'expected a number of trials ≥ 0' })
    .nonnegative({ error: 'expected a number of trials ≥ 0' })
    .default(0),
  number_of_trials: positiveInteger(),
  override: z
    .record(z.string(), z.unknown(), { error: 'expected a mapping of trial settings to values' })
    .default({}),
});

/** `theoryid` as an integer; n3fit runcards also write it with underscores (40_000_000). */
const theoryId = z.preprocess(
  (value) =>
    typeof value === 'string' && /^\d[\d_]*$/.test(value)
      ? Number(value.replaceAll('_', ''))
      : value,
  z
    .int({ error: 'expected a theory id (a non-negative integer)' })
    .nonnegative({ error: 'expected a theory id (a non-negative integer)' }),
);

/**
 * The runcard schema: n3fit's keys with n3fit's defaults, plus `data_paths` and
 * `dataset_inputs[].bundle` to find inputs without NNPDF's server.
 */
export const runcardSchema = section({
  description: z.string({ error: 'expected a string' }).optional(),
  dataset_inputs: z
    .array(datasetInputSchema, { error: 'expected a list of datasets' })
    .min(1, { error: 'expected at least one dataset' }),
  datacuts: section({
    t0pdfset: text().optional(),
    q2min: nonNegativeNumber().default(3.49),
    w2min: nonNegativeNumber().default(12.5),
    maxTau: positiveNumber().optional(),
  }).prefault({}),
  theory: section({ theoryid: theoryId }).optional(),
  data_paths: section({
    theories: text().optional(),
    commondata: text().optional(),
    lhapdf: text().optional(),
    /**
     * partonfit: the data folder where `partonfit get` puts theories and LHAPDF sets; theories
     * and sets are looked for there when `theories` or `lhapdf` is not given (default
     * `$PARTONFIT_DATA`, else the user's cache folder).
     */
    data: text().optional(),
  }).prefault({}),
  trvlseed: seed(),
  nnseed: seed(),
  mcseed: seed(),
  genrep: flag().default(true),
  diagonal_basis: flag().default(true),
  diagonal_frac: numberBetween(0, 1).default(0.75),
  same_trvl_per_replica: flag().default(false),
  /**
   * Closure tests (upstream's keys): with `fakedata`, the central data are replaced by the
   * predictions of `fakepdf` (an LHAPDF set under `data_paths.lhapdf`, or `toyLH` for the
   * embedded Les Houches toy PDF), plus one fluctuation drawn with `filterseed` when
   * `fakenoise` is on (level 1; with `genrep` the replicas add their own: level 2).
   */
  closuretest: section({
    fakedata: flag().default(false),
    fakepdf: text().optional(),
    fakenoise: flag().default(false),
    filterseed: seed().default(0),
  }).optional(),
  /**
   * partonfit: how `partonfit evolve` takes the fit from Q0 to an LHAPDF set. `theory_card` is an
   * NNPDF theory card (YAML): an absolute path, a path relative to the fit folder (where the fit
   * keeps its copy of the runcard, `<output>/<fit>/runcard.yml`, which `evolve` reads), or the
   * name of a card embedded in `@partonfit/evolution` (`toyLH-LO` for the embedded closure fit).
   * Not part of the fit's settings: it does not change `runcardDigest`.
   */
  evolution: section({ theory_card: text() }).optional(),
  /**
   * validphys's theory covariance S from scale variations and/or a user's covariance:
   * `point_prescriptions` (or the older single `point_prescription`), `theoryids` (one theory
   * per scale combination the prescriptions need, the fit's theory first; not needed for the
   * embedded closure datasets, whose varied tables partonfit generates), `pdf` (the set the
   * shifts are computed with), `user_covmat_path` (a CSV as validphys writes it) with its
   * factor `mult_factor`, and whether S enters the χ² of the fit and the pseudodata (both off by
   * default, as upstream). validphys 4.0's switches: `use_user_uncertainties` (false leaves the
   * user covariance out; a 4.0 runcard with `user_covmat_path` must give it, since 4.0 and 4.1
   * differ when it is absent) and `use_scalevar_uncertainties` (true needs prescriptions; false
   * beside them, which 4.0 ignored, is refused).
   */
  theorycovmatconfig: section({
    point_prescriptions: z
      .array(oneOf(POINT_PRESCRIPTION_NAMES), { error: 'expected a list of point prescriptions' })
      .min(1, { error: 'expected at least one point prescription' })
      .optional(),
    point_prescription: oneOf(POINT_PRESCRIPTION_NAMES).optional(),
    theoryids: z
      .array(theoryId, { error: 'expected a list of theory ids' })
      .min(1, { error: 'expected at least the central theory' })
      .optional(),
    pdf: text().optional(),
    user_covmat_path: text().optional(),
    mult_factor: positiveNumber().optional(),
    use_user_uncertainties: flag().optional(),
    use_scalevar_uncertainties: flag().optional(),
    use_thcovmat_in_fitting: flag().default(false),
    use_thcovmat_in_sampling: flag().default(false),
  }).optional(),
  use_t0_sampling: flag().default(true),
  /**
   * n3fit's `load`: the weights the replicas start from instead of their random initialisation —
   * one `weights.h5` for every replica (as n3fit), or (partonfit) a fit folder whose
   * `nnfit/replica_<r>/weights.h5` replica r starts from. A path relative to the runcard's folder.
   */
  load: text().optional(),
  parameters,
  /**
   * partonfit: hyperparameters of their own per replica, entry `(r − 1) mod N` for replica r,
   * each merged onto `parameters` (see `replicaParameters`). Filled from the scan's trials when
   * the runcard has `trial_specs`.
   */
  parameters_per_replica: z
    .array(parameters, { error: 'expected a list of parameter settings, one per entry' })
    .min(1, { error: 'expected at least one entry' })
    .optional(),
  trial_specs: trialSpecs.optional(),
  /** The search space of `partonfit hyperopt` (n3fit's `--hyperopt`); a fit ignores it. */
  hyperscan_config: hyperscanConfigSchema.optional(),
  /** The partitions and loss of `partonfit hyperopt`; a fit ignores it. */
  kfold: kfoldSchema.optional(),
  fitting,
  positivity: section({ posdatasets: z.array(lagrangeDataset).default([]) }).prefault({}),
  integrability: section({ integdatasets: z.array(lagrangeDataset).default([]) }).prefault({}),
});
