import { util } from '@tensorflow/tfjs-core';
import type { KernelConfig, TensorInfo } from '@tensorflow/tfjs-core';
import type { NativeAddon } from '../addon/native-addon.js';
import { REDUCE_OPS } from '../addon/op-codes.js';
import {
  float32Values,
  MAX_NATIVE_RANK,
  nativeKernel,
  shapeArray,
  sizeOf,
} from './native-kernel.js';

/** A reduction as the addon's `(outer, reduced, inner)` view of a (possibly transposed) input. */
interface ReductionView {
  readonly values: Float32Array;
  readonly outer: number;
  readonly reduced: number;
  readonly inner: number;
}

/**
 * Views x so that the reduced axes form one contiguous middle axis: directly when they are
 * adjacent, otherwise after a native transpose that moves them innermost.
 */
function reductionView(
  addon: NativeAddon,
  values: Float32Array,
  shape: readonly number[],
  axes: readonly number[],
): ReductionView {
  if (axes.length === 0) return { values, outer: values.length, reduced: 1, inner: 1 };
  const first = axes[0] ?? 0;
  const last = axes[axes.length - 1] ?? 0;
  const reduced = sizeOf(axes.map((axis) => shape[axis] ?? 1));
  if (last - first + 1 === axes.length) {
    return {
      values,
      outer: sizeOf(shape.slice(0, first)),
      reduced,
      inner: sizeOf(shape.slice(last + 1)),
    };
  }
  const kept = shape.map((_, axis) => axis).filter((axis) => !axes.includes(axis));
  const transposed = new Float32Array(values.length);
  addon.transpose(values, shapeArray(shape), Int32Array.from([...kept, ...axes]), transposed);
  return { values: transposed, outer: values.length / Math.max(reduced, 1), reduced, inner: 1 };
}

/**
 * `Sum`, `Mean`, `Max` and `Min` of float32 tensors over any axes. Sums accumulate in float64
 * (so a sum of 10⁶ float32 values is exact to float32 rounding); Max and Min return NaN when an
 * element is NaN, like the cpu backend. Other dtypes go to the cpu kernels.
 */
export function reductionKernels(addon: NativeAddon): KernelConfig[] {
  return Object.entries(REDUCE_OPS).map(([kernelName, op]) =>
    nativeKernel(kernelName, ({ inputs, backend, attrs }) => {
      const { x } = inputs as { x: TensorInfo };
      const values = float32Values(backend, x);
      if (values === undefined || x.shape.length > MAX_NATIVE_RANK) return undefined;
      // Max names its axes `reductionIndices`; Sum, Mean and Min name them `axis`.
      const axis = (kernelName === 'Max' ? attrs.reductionIndices : attrs.axis) as
        number | number[];
      const axes = [...new Set(util.parseAxisParam(axis, x.shape))].sort((p, q) => p - q);
      const keepDims = attrs.keepDims === true;
      const outShape = keepDims
        ? x.shape.map((dim, axis) => (axes.includes(axis) ? 1 : dim))
        : x.shape.filter((_, axis) => !axes.includes(axis));
      const view = reductionView(addon, values, x.shape, axes);
      const out = backend.allocateOutput(sizeOf(outShape));
      addon.reduce(op, view.values, view.outer, view.reduced, view.inner, out);
      return backend.outputTensorInfo(outShape, out);
    }),
  );
}
