import { backend_util, Select } from '@tensorflow/tfjs-core';
import type { KernelConfig, TensorInfo } from '@tensorflow/tfjs-core';
import type { NativeAddon } from '../addon/native-addon.js';
import { BINARY_OPS, COMPARE_OPS, UNARY_OPS } from '../addon/op-codes.js';
import {
  float32Values,
  MAX_NATIVE_RANK,
  nativeKernel,
  shapeArray,
  sizeOf,
} from './native-kernel.js';

/** The float32 unary kernels of {@link UNARY_OPS}, split over the thread pool on large tensors. */
export function unaryKernels(addon: NativeAddon): KernelConfig[] {
  return Object.entries(UNARY_OPS).map(([kernelName, op]) =>
    nativeKernel(kernelName, ({ inputs, backend, attrs }) => {
      const { x } = inputs as { x: TensorInfo };
      const values = float32Values(backend, x);
      if (values === undefined) return undefined;
      const alpha = typeof attrs.alpha === 'number' ? attrs.alpha : 0;
      const out = backend.allocateOutput(values.length);
      addon.unary(op, alpha, values, out);
      return backend.outputTensorInfo(x.shape, out);
    }),
  );
}

/**
 * The float32 binary kernels of {@link BINARY_OPS} with NumPy broadcasting (ranks up to 8); the
 * addon collapses the broadcast into contiguous runs.
 */
export function binaryKernels(addon: NativeAddon): KernelConfig[] {
  return Object.entries(BINARY_OPS).map(([kernelName, op]) =>
    nativeKernel(kernelName, ({ inputs, backend }) => {
      const [a, b] = (kernelName === 'EluGrad' ? [inputs.dy, inputs.y] : [inputs.a, inputs.b]) as [
        TensorInfo,
        TensorInfo,
      ];
      const aValues = float32Values(backend, a);
      const bValues = float32Values(backend, b);
      if (aValues === undefined || bValues === undefined) return undefined;
      const outShape = backend_util.assertAndGetBroadcastShape(a.shape, b.shape);
      if (outShape.length > MAX_NATIVE_RANK) return undefined;
      const out = backend.allocateOutput(sizeOf(outShape));
      addon.binary(
        op,
        aValues,
        shapeArray(a.shape),
        bValues,
        shapeArray(b.shape),
        out,
        shapeArray(outShape),
      );
      return backend.outputTensorInfo(outShape, out);
    }),
  );
}

/**
 * The comparisons of {@link COMPARE_OPS} between float32 tensors, with broadcasting, giving
 * bool tensors (other dtypes go to the cpu kernels).
 */
export function comparisonKernels(addon: NativeAddon): KernelConfig[] {
  return Object.entries(COMPARE_OPS).map(([kernelName, op]) =>
    nativeKernel(kernelName, ({ inputs, backend }) => {
      const { a, b } = inputs as { a: TensorInfo; b: TensorInfo };
      const aValues = float32Values(backend, a);
      const bValues = float32Values(backend, b);
      if (aValues === undefined || bValues === undefined) return undefined;
      const outShape = backend_util.assertAndGetBroadcastShape(a.shape, b.shape);
      if (outShape.length > MAX_NATIVE_RANK) return undefined;
      const out = backend.allocateBoolOutput(sizeOf(outShape));
      addon.compare(
        op,
        aValues,
        shapeArray(a.shape),
        bValues,
        shapeArray(b.shape),
        out,
        shapeArray(outShape),
      );
      return backend.outputTensorInfo(outShape, out);
    }),
  );
}

/**
 * `Select` (`tf.where`, which broadcasts its operands to one shape before the kernel): a bool
 * condition choosing between two float32 tensors element by element.
 */
export function selectKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(Select, ({ inputs, backend }) => {
    const { condition, t, e } = inputs as { condition: TensorInfo; t: TensorInfo; e: TensorInfo };
    const tValues = float32Values(backend, t);
    const eValues = float32Values(backend, e);
    const conditionValues = backend.data.get(condition.dataId).values;
    if (tValues === undefined || eValues === undefined) return undefined;
    if (!(conditionValues instanceof Uint8Array)) return undefined;
    const size = tValues.length;
    if (eValues.length !== size || conditionValues.length !== size) return undefined;
    const out = backend.allocateOutput(size);
    addon.select(conditionValues, tValues, eValues, out);
    return backend.outputTensorInfo(t.shape, out);
  });
}
