import '@tensorflow/tfjs-backend-cpu';
import {
  engine,
  getKernelsForBackend,
  registerBackend,
  registerKernel,
} from '@tensorflow/tfjs-core';
import type { KernelConfig } from '@tensorflow/tfjs-core';
import { loadNativeAddon } from './addon/load-addon.js';
import type { NativeBackendStatus } from './addon/load-addon.js';
import { NATIVE_BACKEND_NAME, nativeKernels } from './kernels/index.js';
import { NativeBackend } from './native-backend.js';

/**
 * Between tfjs-node (3) and wasm (2): a program that only calls `tf.ready()` gets `native` when
 * it loaded, and tfjs-node when that is installed too.
 */
const NATIVE_PRIORITY = 2.5;

const loaded = loadNativeAddon();

if (loaded.addon !== undefined && !Object.hasOwn(engine().registryFactory, NATIVE_BACKEND_NAME)) {
  const kernels = new Map<string, KernelConfig>();
  for (const config of getKernelsForBackend('cpu')) {
    kernels.set(config.kernelName, { ...config, backendName: NATIVE_BACKEND_NAME });
  }
  for (const config of nativeKernels(loaded.addon)) kernels.set(config.kernelName, config);
  for (const config of kernels.values()) registerKernel(config);
  registerBackend(NATIVE_BACKEND_NAME, () => new NativeBackend(), NATIVE_PRIORITY);
}

/**
 * Whether the `native` backend is registered and can run here. When it is, what it runs on
 * (BLAS, OpenBLAS kernel and how it was chosen, threads); when not, a one-line reason that says
 * what to install or rebuild, e.g. `not built: no CBLAS found (apt-get install
 * libopenblas-dev, …)`.
 */
export function backendStatus(): NativeBackendStatus {
  return loaded.status;
}
