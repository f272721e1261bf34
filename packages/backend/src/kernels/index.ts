export {
  hasFusedLuminosityKernels,
  LUMINOSITY_CONTRACTION_GRAD_KERNEL,
  LUMINOSITY_CONTRACTION_KERNEL,
  checkLuminosityContraction,
  luminosityContractionAttrs,
  runLuminosityContraction,
  runLuminosityContractionGrad,
  type LuminosityContraction,
  type LuminosityContractionAttrs,
  type LuminosityContractionGradInputs,
  type LuminosityContractionInputs,
} from './luminosity-contraction.js';
export {
  ADAM_FAMILY_ROW_FACTORS,
  ADAM_FAMILY_UPDATE_KERNEL,
  checkAdamFamilyUpdate,
  hasAdamFamilyUpdateKernel,
  runAdamFamilyUpdate,
  type AdamFamilyUpdate,
  type AdamFamilyUpdateAttrs,
  type AdamFamilyUpdateInputs,
} from './adam-family-update.js';
