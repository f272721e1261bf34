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
export { TOY_PDF_Q0, toyPdfFlavourXf, toyPdfXf } from './toy-pdf.js';
export {
  INTERPOLATION_DEGREE,
  interpolationVariable,
  interpolationWeights,
  interpolationXGrid,
  type InterpolationWeights,
  type InterpolationXGridOptions,
} from './x-interpolation.js';
