import type { KernelConfig, TensorInfo } from '@tensorflow/tfjs-core';
import {
  ADAM_FAMILY_UPDATE_KERNEL,
  checkAdamFamilyUpdate,
  type AdamFamilyUpdateInputs,
} from '@partonfit/backend';
import type { NativeAddon } from '../addon/native-addon.js';
import { nativeKernel, requiredFloat32Values } from './native-kernel.js';

/**
 * The fused Adam/Nadam update of one variable of a multi-replica model
 * (`ADAM_FAMILY_UPDATE_KERNEL` of `@partonfit/backend`): one pass over the variable, its
 * gradient and statistics, giving `[variable, momentum, velocity]`. Registered only when the
 * addon has it (an addon built before it lacks it, and the trainer then keeps its tensor
 * formulation).
 */
export function optimizerKernels(addon: NativeAddon): KernelConfig[] {
  if (typeof addon.adamFamilyUpdate !== 'function') return [];
  return [
    nativeKernel(ADAM_FAMILY_UPDATE_KERNEL, ({ inputs, backend, attrs }) => {
      const tensors = inputs as unknown as AdamFamilyUpdateInputs;
      const sizes = checkAdamFamilyUpdate(ADAM_FAMILY_UPDATE_KERNEL, tensors, attrs);
      const values = (tensor: TensorInfo, name: string): Float32Array =>
        requiredFloat32Values(ADAM_FAMILY_UPDATE_KERNEL, backend, tensor, name);
      const { variable } = tensors;
      const size = sizes.rows * sizes.rowSize;
      const outputs = [0, 1, 2].map(() => backend.allocateOutput(size));
      addon.adamFamilyUpdate(
        values(variable, 'variable'),
        values(tensors.gradient, 'gradient'),
        values(tensors.momentum, 'momentum'),
        values(tensors.velocity, 'velocity'),
        values(tensors.factors, 'factors'),
        values(tensors.update, 'update'),
        sizes.oneMinusBeta1,
        sizes.oneMinusBeta2,
        sizes.epsilon,
        sizes.rows,
        outputs[0],
        outputs[1],
        outputs[2],
      );
      return outputs.map((output) => backend.outputTensorInfo(variable.shape, output));
    }),
  ];
}
