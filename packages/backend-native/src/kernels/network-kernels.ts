import type { KernelConfig, TensorInfo } from '@tensorflow/tfjs-core';
import {
  checkDenseNetwork,
  DENSE_NETWORK_GRAD_KERNEL,
  DENSE_NETWORK_KERNEL,
  denseNetworkInputs,
} from '@partonfit/backend';
import type { NativeAddon } from '../addon/native-addon.js';
import type { NativeBackend } from '../native-backend.js';
import { nativeKernel, requiredFloat32Values } from './native-kernel.js';

/**
 * A multi-replica network's dense layers in one kernel forward and one backward
 * (`DENSE_NETWORK_KERNEL` and `DENSE_NETWORK_GRAD_KERNEL` of `@partonfit/backend`). Registered
 * only when the addon has them.
 */
export function networkKernels(addon: NativeAddon): KernelConfig[] {
  if (typeof addon.denseNetwork !== 'function' || typeof addon.denseNetworkGrad !== 'function') {
    return [];
  }
  const floatsOf = (kernel: string, backend: NativeBackend) => (tensor: TensorInfo, name: string) =>
    requiredFloat32Values(kernel, backend, tensor, name);
  return [
    nativeKernel(DENSE_NETWORK_KERNEL, ({ inputs, backend, attrs }) => {
      const tensors = denseNetworkInputs(inputs);
      const network = checkDenseNetwork(DENSE_NETWORK_KERNEL, tensors, attrs);
      const floats = floatsOf(DENSE_NETWORK_KERNEL, backend);
      const units = network.units[network.units.length - 1] ?? 0;
      const output = backend.allocateOutput(network.replicas * network.points * units);
      const tape = backend.allocateOutput(network.tapeSize);
      addon.denseNetwork(
        floats(tensors.input, 'input'),
        tensors.kernels.map((kernel, l) => floats(kernel, `kernel${l}`)),
        (tensors.biases ?? []).map((bias, l) => floats(bias, `bias${l}`)),
        network.activations,
        network.widths,
        network.passThrough,
        network.replicas,
        network.points,
        network.inputs,
        network.sharedInput,
        Int32Array.from(network.units),
        network.leakyReluAlpha,
        output,
        tape,
      );
      return [
        backend.outputTensorInfo([network.replicas, network.points, units], output),
        backend.outputTensorInfo([network.tapeSize], tape),
      ];
    }),
    nativeKernel(DENSE_NETWORK_GRAD_KERNEL, ({ inputs, backend, attrs }) => {
      const tensors = denseNetworkInputs(inputs);
      const network = checkDenseNetwork(DENSE_NETWORK_GRAD_KERNEL, tensors, attrs);
      const floats = floatsOf(DENSE_NETWORK_GRAD_KERNEL, backend);
      const { outputGradient, tape } = inputs as { outputGradient: TensorInfo; tape: TensorInfo };
      const inputGradient = backend.allocateOutput(
        tensors.input.shape.reduce((size, axis) => size * axis, 1),
      );
      const kernelGradients = tensors.kernels.map((kernel) =>
        backend.allocateOutput(kernel.shape.reduce((size, axis) => size * axis, 1)),
      );
      const biasGradients = network.units.map((units) =>
        backend.allocateOutput(network.replicas * units),
      );
      addon.denseNetworkGrad(
        floats(outputGradient, 'outputGradient'),
        floats(tensors.input, 'input'),
        tensors.kernels.map((kernel, l) => floats(kernel, `kernel${l}`)),
        floats(tape, 'tape'),
        network.activations,
        network.widths,
        network.passThrough,
        network.replicas,
        network.points,
        network.inputs,
        network.sharedInput,
        Int32Array.from(network.units),
        network.leakyReluAlpha,
        inputGradient,
        kernelGradients,
        biasGradients,
      );
      return [
        backend.outputTensorInfo([...tensors.input.shape], inputGradient),
        ...tensors.kernels.flatMap((kernel, l) => [
          backend.outputTensorInfo([...kernel.shape], kernelGradients[l]),
          backend.outputTensorInfo([network.replicas, 1, network.units[l] ?? 0], biasGradients[l]),
        ]),
      ];
    }),
  ];
}
