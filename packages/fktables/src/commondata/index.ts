export {
  INTRA_DATASET_TYPES,
  isSpecialType,
  requiresPositivePseudodata,
  type CommonData,
  type DatasetKind,
  type Kinematics,
  type TheoryMetadata,
  type Uncertainty,
  type UncertaintyTreatment,
  type UncertaintyType,
} from './commondata.js';
export { DATASET_NAMES_FILE, readLegacyNames, type LegacyNameTarget } from './dataset-names.js';
export { loadCommonData, type LoadCommonDataOptions } from './load-commondata.js';
export {
  legacyKinematicVariables,
  loadLegacyCommonData,
  type LoadLegacyCommonDataOptions,
} from './legacy-commondata.js';
export { commonDataAsNdarrays, type CommonDataNdarrays } from './commondata-ndarrays.js';
