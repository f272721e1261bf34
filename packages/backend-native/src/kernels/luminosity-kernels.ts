import type { KernelConfig, TensorInfo } from '@tensorflow/tfjs-core';
import type { NativeAddon } from '../addon/native-addon.js';
import type { NativeBackend } from '../native-backend.js';
import { float32Values, nativeKernel } from './native-kernel.js';

/**
 * The kernel name of the fused hadronic FK contraction, the one `@partonfit/layers` runs when
 * the active backend registers it (its `LUMINOSITY_CONTRACTION_KERNEL`): inputs `first`,
 * `second` `(replicas, x, channel)` and `fk` `(channel · x1 · x2, data)`, output
 * `(replicas, data)`.
 */
export const LUMINOSITY_CONTRACTION = 'PartonfitLuminosityContraction';

/**
 * The kernel name of its backward (`LUMINOSITY_CONTRACTION_GRAD_KERNEL` of the layers): inputs
 * `dy` `(replicas, data)`, `first`, `second`, `fk`; outputs `[dFirst, dSecond]`.
 */
export const LUMINOSITY_CONTRACTION_GRAD = 'PartonfitLuminosityContractionGrad';

/** The sizes of a contraction, after checking the shapes fit together. */
interface ContractionSizes {
  readonly replicas: number;
  readonly x: number;
  readonly channels: number;
  readonly data: number;
}

function contractionSizes(kernel: string, first: TensorInfo, second: TensorInfo, fk: TensorInfo) {
  const [replicas, x, channels] = first.shape;
  const sizes: ContractionSizes = { replicas, x, channels, data: fk.shape[1] };
  if (
    first.shape.length !== 3 ||
    second.shape.join() !== first.shape.join() ||
    fk.shape.length !== 2 ||
    fk.shape[0] !== channels * x * x
  ) {
    throw new Error(
      `${kernel}: first and second must be (replicas, x, channel) and fk (channel · x · x, data); ` +
        `got first [${first.shape.join(', ')}], second [${second.shape.join(', ')}], fk [${fk.shape.join(', ')}]`,
    );
  }
  return sizes;
}

function float32Inputs(
  kernel: string,
  backend: NativeBackend,
  tensors: Record<string, TensorInfo>,
): Record<string, Float32Array> {
  const arrays: Record<string, Float32Array> = {};
  for (const [name, tensor] of Object.entries(tensors)) {
    const values = float32Values(backend, tensor);
    if (values === undefined) {
      throw new Error(`${kernel}: ${name} must be a float32 tensor, got ${tensor.dtype}`);
    }
    arrays[name] = values;
  }
  return arrays;
}

/** The two luminosity-contraction kernels, forward and backward, in the addon. */
export function luminosityKernels(addon: NativeAddon): KernelConfig[] {
  const forward = nativeKernel(LUMINOSITY_CONTRACTION, ({ inputs, backend }) => {
    const { first, second, fk } = inputs as Record<string, TensorInfo>;
    const sizes = contractionSizes(LUMINOSITY_CONTRACTION, first, second, fk);
    const arrays = float32Inputs(LUMINOSITY_CONTRACTION, backend, { first, second, fk });
    const out = backend.allocateOutput(sizes.replicas * sizes.data);
    addon.luminosityContraction(
      arrays.first,
      arrays.second,
      arrays.fk,
      sizes.replicas,
      sizes.x,
      sizes.channels,
      sizes.data,
      out,
    );
    return backend.outputTensorInfo([sizes.replicas, sizes.data], out);
  });
  const backward = nativeKernel(LUMINOSITY_CONTRACTION_GRAD, ({ inputs, backend }) => {
    const { dy, first, second, fk } = inputs as Record<string, TensorInfo>;
    const sizes = contractionSizes(LUMINOSITY_CONTRACTION_GRAD, first, second, fk);
    if (dy.shape.join() !== [sizes.replicas, sizes.data].join()) {
      throw new Error(
        `${LUMINOSITY_CONTRACTION_GRAD}: dy must be (replicas, data) = [${sizes.replicas}, ${sizes.data}], got [${dy.shape.join(', ')}]`,
      );
    }
    const arrays = float32Inputs(LUMINOSITY_CONTRACTION_GRAD, backend, { dy, first, second, fk });
    const factors = sizes.replicas * sizes.x * sizes.channels;
    const dFirst = backend.allocateOutput(factors);
    const dSecond = backend.allocateOutput(factors);
    addon.luminosityContractionGrad(
      arrays.dy,
      arrays.first,
      arrays.second,
      arrays.fk,
      sizes.replicas,
      sizes.x,
      sizes.channels,
      sizes.data,
      dFirst,
      dSecond,
    );
    return [
      backend.outputTensorInfo(first.shape, dFirst),
      backend.outputTensorInfo(first.shape, dSecond),
    ];
  });
  return [forward, backward];
}
