export {
  CLOSURE_DATA_X_RANGE,
  CLOSURE_DATASET_SPECS,
  CLOSURE_POSITIVITY_POINTS,
  CLOSURE_POSITIVITY_X_RANGE,
  CLOSURE_X_GRID_OPTIONS,
  DIMUON_X_RANGE,
  closureDatasets,
  closurePositivity,
  closureXGrid,
  closureXPoints,
  type ClosureDataset,
  type ClosureDatasetSpec,
  type ClosureProcess,
  type ClosureDatasetsOptions,
} from './closure-datasets.js';
export {
  closureCovariance,
  fluctuateData,
  type ClosureUncertainty,
} from './closure-uncertainties.js';
export {
  combinationValues,
  F2_ANTINEUTRINO_PROTON,
  F2_CHARM_ANTINEUTRINO_PROTON,
  F2_CHARM_NEUTRINO_PROTON,
  F2_CHARM_PROTON,
  F2_DEUTERON,
  F2_NEUTRINO_PROTON,
  F2_PROTON,
  pdfValue,
  XF3_ANTINEUTRINO_PROTON,
  XF3_NEUTRINO_PROTON,
  type FlavourCombination,
} from './lo-dis.js';
export {
  evolutionCoefficients,
  GENERATED_FILE,
  loFkTable,
  type LoFkTableOptions,
} from './lo-fk-table.js';
export {
  closureDatasetsAtScale,
  evolvedLoFkTable,
  SCALE_VARIED_CLOSURE_MAX_Y,
  SCALE_VARIED_CLOSURE_MIN_W2,
  SCALE_VARIED_CLOSURE_Q2_RANGE,
  SCALE_VARIED_CLOSURE_SPECS,
  SCALE_VARIED_CLOSURE_SQRT_S,
  SCALE_VARIED_CLOSURE_X_RANGE,
  scaleVariedClosureKinematics,
  type ClosureDatasetsAtScaleOptions,
  type DisKinematics,
  type DisProcess,
  type EvolvedLoFkTableOptions,
  type ScaleVariedClosureDataset,
  type ScaleVariedClosureSpec,
} from './scale-varied-closure.js';
export { TOY_PDF_Q0, toyPdfFlavourXf, toyPdfXf } from './toy-pdf.js';
export {
  INTERPOLATION_DEGREE,
  interpolationVariable,
  interpolationWeights,
  interpolationXGrid,
  type InterpolationWeights,
  type InterpolationXGridOptions,
} from './x-interpolation.js';
