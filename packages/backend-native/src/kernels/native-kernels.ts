import type { KernelConfig } from '@tensorflow/tfjs-core';
import type { NativeAddon } from '../addon/native-addon.js';
import {
  binaryKernels,
  comparisonKernels,
  selectKernel,
  unaryKernels,
} from './elementwise-kernels.js';
import {
  concatKernel,
  packKernel,
  padKernel,
  sliceKernel,
  splitVKernel,
  transposeKernel,
  unpackKernel,
} from './layout-kernels.js';
import { luminosityKernels } from './luminosity-kernels.js';
import { batchMatMulKernel, fusedMatMulKernel } from './matmul-kernels.js';
import { networkKernels } from './network-kernels.js';
import { optimizerKernels } from './optimizer-kernels.js';
import { reductionKernels } from './reduction-kernels.js';
import { stoppingKernels } from './stopping-kernels.js';

/**
 * Every kernel the `native` backend runs in the addon (each falls back to the cpu kernel of
 * the same name for inputs it does not handle).
 */
export function nativeKernels(addon: NativeAddon): KernelConfig[] {
  return [
    batchMatMulKernel(addon),
    fusedMatMulKernel(addon),
    ...unaryKernels(addon),
    ...binaryKernels(addon),
    ...comparisonKernels(addon),
    selectKernel(addon),
    ...reductionKernels(addon),
    transposeKernel(addon),
    concatKernel(addon),
    sliceKernel(addon),
    splitVKernel(addon),
    unpackKernel(addon),
    packKernel(addon),
    padKernel(addon),
    ...luminosityKernels(addon),
    ...networkKernels(addon),
    ...optimizerKernels(addon),
    ...stoppingKernels(addon),
  ];
}
