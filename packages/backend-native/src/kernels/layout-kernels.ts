import {
  backend_util,
  Concat,
  Pack,
  PadV2,
  Slice,
  slice_util,
  SplitV,
  Transpose,
  Unpack,
  util,
} from '@tensorflow/tfjs-core';
import type { KernelConfig, TensorInfo } from '@tensorflow/tfjs-core';
import type { FourByteArray, NativeAddon } from '../addon/native-addon.js';
import type { NativeBackend } from '../native-backend.js';
import {
  fourByteArrayLike,
  fourByteOutput,
  fourByteValues,
  MAX_NATIVE_RANK,
  nativeKernel,
  shapeArray,
  sizeOf,
} from './native-kernel.js';

/** `Transpose` of float32 and int32 tensors: contiguous runs copied whole, the rest in tiles. */
export function transposeKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(Transpose, ({ inputs, backend, attrs }) => {
    const { x } = inputs as { x: TensorInfo };
    const values = fourByteValues(backend, x);
    if (values === undefined || x.shape.length > MAX_NATIVE_RANK) return undefined;
    const perm = attrs.perm as number[];
    const outShape = perm.map((axis) => x.shape[axis] ?? 1);
    const out = fourByteArrayLike(backend, values, values.length);
    addon.transpose(values, shapeArray(x.shape), Int32Array.from(perm), out);
    return fourByteOutput(backend, outShape, out);
  });
}

/**
 * `Concat` of float32 or int32 tensors along one axis as row copies. Empty inputs, a single
 * input and other dtypes go to the cpu kernel.
 */
export function concatKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(Concat, ({ inputs, backend, attrs }) => {
    const [first, ...rest] = Object.values(inputs) as [TensorInfo | undefined, ...TensorInfo[]];
    if (first === undefined || rest.length === 0) return undefined;
    const tensors = [first, ...rest];
    const [axis = 0] = util.parseAxisParam(attrs.axis as number, first.shape);
    const values: FourByteArray[] = [];
    for (const tensor of tensors) {
      const tensorValues = fourByteValues(backend, tensor);
      if (tensorValues === undefined || tensor.dtype !== first.dtype) return undefined;
      if (tensorValues.length === 0) return undefined;
      values.push(tensorValues);
    }
    backend_util.assertParamsConsistent(
      tensors.map((tensor) => tensor.shape),
      axis,
    );
    const outShape = backend_util.computeOutShape(
      tensors.map((tensor) => tensor.shape),
      axis,
    );
    const outer = sizeOf(first.shape.slice(0, axis));
    const rowLengths = Int32Array.from(tensors, (tensor) => sizeOf(tensor.shape.slice(axis)));
    const out = fourByteArrayLike(backend, values[0] ?? new Float32Array(0), sizeOf(outShape));
    addon.concat(values, rowLengths, outer, out);
    return fourByteOutput(backend, outShape, out);
  });
}

/**
 * `x[begin : begin + size]` as a tensor of shape `outShape` (`size`, or `size` without an axis
 * of length 1): a contiguous block is a view of x's values, as in the cpu backend (registering
 * it marks x's buffer as shared); a strided one is copied in contiguous runs.
 */
function sliceOf(
  addon: NativeAddon,
  backend: NativeBackend,
  x: TensorInfo,
  values: FourByteArray,
  begin: number[],
  size: number[],
  outShape: number[],
): TensorInfo {
  if (slice_util.isSliceContinous(x.shape, begin, size)) {
    const offset = slice_util.computeFlatOffset(begin, util.computeStrides(x.shape));
    return backend.makeTensorInfo(
      outShape,
      x.dtype,
      values.subarray(offset, offset + sizeOf(size)),
    );
  }
  const out = fourByteArrayLike(backend, values, sizeOf(size));
  addon.slice(values, shapeArray(x.shape), shapeArray(begin), shapeArray(size), out);
  return fourByteOutput(backend, outShape, out);
}

/**
 * `Slice` of float32 or int32 tensors: a contiguous slice is a view of the input, a strided
 * one a copy in contiguous runs.
 */
export function sliceKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(Slice, ({ inputs, backend, attrs }) => {
    const { x } = inputs as { x: TensorInfo };
    const values = fourByteValues(backend, x);
    if (values === undefined || x.shape.length > MAX_NATIVE_RANK) return undefined;
    const [begin, size] = slice_util.parseSliceParams(
      x,
      attrs.begin as number | number[],
      attrs.size as number | number[],
    );
    slice_util.assertParamsValid(x, begin, size);
    return sliceOf(addon, backend, x, values, begin, size, size);
  });
}

/** `SplitV` (`tf.split`) of float32 or int32 tensors: one slice per piece. */
export function splitVKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(SplitV, ({ inputs, backend, attrs }) => {
    const { x } = inputs as { x: TensorInfo };
    const values = fourByteValues(backend, x);
    if (values === undefined || x.shape.length > MAX_NATIVE_RANK) return undefined;
    const [axis = 0] = util.parseAxisParam(attrs.axis as number, x.shape);
    const sizes = backend_util.prepareSplitSize(
      x,
      attrs.numOrSizeSplits as number | number[],
      axis,
    );
    const begin = x.shape.map(() => 0);
    return sizes.map((length) => {
      const size = x.shape.map((dim, d) => (d === axis ? length : dim));
      const piece = sliceOf(addon, backend, x, values, [...begin], size, size);
      begin[axis] = (begin[axis] ?? 0) + length;
      return piece;
    });
  });
}

/** `Unpack` (`tf.unstack`) of float32 or int32 tensors: one slice per index of the axis. */
export function unpackKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(Unpack, ({ inputs, backend, attrs }) => {
    const { value } = inputs as { value: TensorInfo };
    const values = fourByteValues(backend, value);
    if (values === undefined || value.shape.length > MAX_NATIVE_RANK) return undefined;
    const [axis = 0] = util.parseAxisParam(attrs.axis as number, value.shape);
    const size = value.shape.map((dim, d) => (d === axis ? 1 : dim));
    const outShape = value.shape.filter((_, d) => d !== axis);
    return Array.from({ length: value.shape[axis] ?? 0 }, (_, index) => {
      const begin = value.shape.map((_, d) => (d === axis ? index : 0));
      return sliceOf(addon, backend, value, values, begin, size, outShape);
    });
  });
}

/**
 * `Pack` (`tf.stack`) of float32 or int32 tensors of one shape: a concatenation of row
 * copies. A single tensor goes to the cpu kernel.
 */
export function packKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(Pack, ({ inputs, backend, attrs }) => {
    const [first, ...rest] = Object.values(inputs) as [TensorInfo | undefined, ...TensorInfo[]];
    if (first === undefined || rest.length === 0) return undefined;
    const tensors = [first, ...rest];
    const values: FourByteArray[] = [];
    for (const tensor of tensors) {
      const tensorValues = fourByteValues(backend, tensor);
      if (tensorValues === undefined || tensor.dtype !== first.dtype) return undefined;
      util.assertShapesMatch(
        first.shape,
        tensor.shape,
        'All tensors passed to stack must have matching shapes',
      );
      values.push(tensorValues);
    }
    const rank = first.shape.length + 1;
    const [axis = 0] = util.parseAxisParam(attrs.axis as number, new Array<number>(rank).fill(1));
    const outShape = [...first.shape.slice(0, axis), tensors.length, ...first.shape.slice(axis)];
    const outer = sizeOf(first.shape.slice(0, axis));
    const row = sizeOf(first.shape.slice(axis));
    const out = fourByteArrayLike(backend, values[0] ?? new Float32Array(0), sizeOf(outShape));
    addon.concat(
      values,
      Int32Array.from(tensors, () => row),
      outer,
      out,
    );
    return fourByteOutput(backend, outShape, out);
  });
}

/** `PadV2` (`tf.pad`, and the gradient of a slice) of float32 or int32 tensors. */
export function padKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(PadV2, ({ inputs, backend, attrs }) => {
    const { x } = inputs as { x: TensorInfo };
    const values = fourByteValues(backend, x);
    if (values === undefined || x.shape.length > MAX_NATIVE_RANK) return undefined;
    const paddings = attrs.paddings as [number, number][];
    const before = paddings.map(([start]) => start);
    const outShape = x.shape.map(
      (dim, d) => dim + (paddings[d]?.[0] ?? 0) + (paddings[d]?.[1] ?? 0),
    );
    const out = fourByteArrayLike(backend, values, sizeOf(outShape));
    const constantValue = typeof attrs.constantValue === 'number' ? attrs.constantValue : 0;
    addon.pad(
      values,
      shapeArray(x.shape),
      shapeArray(before),
      shapeArray(outShape),
      constantValue,
      out,
    );
    return fourByteOutput(backend, outShape, out);
  });
}
