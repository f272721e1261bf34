export { NATIVE_BACKEND_NAME, nativeKernel, type NativeKernelArgs } from './native-kernel.js';
export { nativeKernels } from './native-kernels.js';
