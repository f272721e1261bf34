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
