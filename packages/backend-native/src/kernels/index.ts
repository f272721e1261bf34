export { NATIVE_BACKEND_NAME, nativeKernel, type NativeKernelArgs } from './native-kernel.js';
export { nativeKernels } from './native-kernels.js';
export { LUMINOSITY_CONTRACTION, LUMINOSITY_CONTRACTION_GRAD } from './luminosity-kernels.js';
