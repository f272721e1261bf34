export {
  loadRuncard,
  parseDatasetInput,
  parseRuncard,
  type ValidatedRuncard,
} from './load-runcard.js';
export type { BasisFlavourSettings, DatasetInput, FitParameters, Runcard } from './runcard.js';
export {
  ACTIVATIONS,
  datasetInputSchema,
  INITIALIZERS,
  OPTIMIZER_LEARNING_RATES,
  runcardSchema,
  SUM_RULE_MODES,
  type OptimizerName,
} from './schema.js';
export { closeNames } from './suggest-key.js';
export {
  canonicalJson,
  runcardDifference,
  runcardDigest,
  type RuncardDifference,
} from './runcard-digest.js';
