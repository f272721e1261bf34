import { _FusedMatMul, BatchMatMul, broadcast_util, util } from '@tensorflow/tfjs-core';
import type { KernelConfig, TensorInfo } from '@tensorflow/tfjs-core';
import type { NativeAddon } from '../addon/native-addon.js';
import { BINARY_OPS, FUSED_ACTIVATIONS } from '../addon/op-codes.js';
import { batchIndex, operandIndex } from './batch-index.js';
import { float32Values, nativeKernel, shapeArray, sizeOf } from './native-kernel.js';
import type { NativeKernelArgs } from './native-kernel.js';
import type { NativeBackend } from '../native-backend.js';

/** The dimensions of `op(a) @ op(b)` for operands of rank ≥ 2 with broadcast batch axes. */
interface ProductShape {
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly aBatch: number[];
  readonly bBatch: number[];
  readonly outBatch: number[];
  /** `(...outBatch, m, n)` */
  readonly outShape: number[];
}

function productShape(
  a: TensorInfo,
  b: TensorInfo,
  transposeA: boolean,
  transposeB: boolean,
): ProductShape {
  const aRank = a.shape.length;
  const bRank = b.shape.length;
  const m = transposeA ? a.shape[aRank - 1] : a.shape[aRank - 2];
  const k = transposeA ? a.shape[aRank - 2] : a.shape[aRank - 1];
  const kB = transposeB ? b.shape[bRank - 1] : b.shape[bRank - 2];
  const n = transposeB ? b.shape[bRank - 2] : b.shape[bRank - 1];
  util.assert(
    k === kB,
    () =>
      `Error in matMul: inner shapes (${k}) and (${kB}) of Tensors with shapes ${a.shape.join(',')} and ` +
      `${b.shape.join(',')} and transposeA=${transposeA} and transposeB=${transposeB} must match.`,
  );
  const aBatch = a.shape.slice(0, -2);
  const bBatch = b.shape.slice(0, -2);
  const outBatch = broadcast_util.assertAndGetBroadcastShape(aBatch, bBatch);
  return { m, n, k, aBatch, bBatch, outBatch, outShape: [...outBatch, m, n] };
}

/** How a bias joins the product: per-column rows the addon adds block by block, or a general add. */
type BiasPlan =
  | { readonly kind: 'rows'; readonly index: Int32Array | null; readonly columnStride: number }
  | { readonly kind: 'general' }
  | { readonly kind: 'unsupported' };

function planBias(bias: TensorInfo, shape: ProductShape): BiasPlan {
  const rank = shape.outShape.length;
  if (bias.shape.length > rank) return { kind: 'unsupported' };
  const aligned = [...new Array<number>(rank - bias.shape.length).fill(1), ...bias.shape];
  const broadcast = broadcast_util.assertAndGetBroadcastShape(shape.outShape, aligned);
  if (broadcast.some((dim, d) => dim !== shape.outShape[d])) return { kind: 'unsupported' };
  const biasRows = aligned[rank - 2] ?? 1;
  const biasColumns = aligned[rank - 1] ?? 1;
  if (biasRows !== 1 && shape.m !== 1) return { kind: 'general' };
  const biasBatch = aligned.slice(0, -2);
  return {
    kind: 'rows',
    index: sizeOf(biasBatch) === 1 ? null : batchIndex(biasBatch, shape.outBatch),
    columnStride: biasColumns === shape.n ? 1 : 0,
  };
}

function product(
  addon: NativeAddon,
  backend: NativeBackend,
  a: Float32Array,
  b: Float32Array,
  shape: ProductShape,
  transposeA: boolean,
  transposeB: boolean,
  epilogue: {
    bias: Float32Array | null;
    biasIndex: Int32Array | null;
    columnStride: number;
    activation: number;
    alpha: number;
  },
): Float32Array {
  const batch = sizeOf(shape.outBatch);
  const out = backend.allocateOutput(batch * shape.m * shape.n);
  addon.matMul(
    a,
    b,
    out,
    batch,
    shape.m,
    shape.n,
    shape.k,
    transposeA,
    transposeB,
    operandIndex(shape.aBatch, shape.outBatch),
    operandIndex(shape.bBatch, shape.outBatch),
    sizeOf(shape.aBatch),
    sizeOf(shape.bBatch),
    epilogue.bias,
    epilogue.biasIndex,
    epilogue.columnStride,
    epilogue.activation,
    epilogue.alpha,
  );
  return out;
}

const NO_EPILOGUE = { bias: null, biasIndex: null, columnStride: 1, activation: 0, alpha: 0 };

/**
 * `BatchMatMul` in CBLAS `sgemm`: both transpose flags, batch axes broadcast (NumPy rules), a
 * shared right operand folded into one tall product, products split over the thread pool.
 */
export function batchMatMulKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(BatchMatMul, ({ inputs, backend, attrs }: NativeKernelArgs) => {
    const { a, b } = inputs as { a: TensorInfo; b: TensorInfo };
    const aValues = float32Values(backend, a);
    const bValues = float32Values(backend, b);
    if (aValues === undefined || bValues === undefined) return undefined;
    const transposeA = attrs.transposeA === true;
    const transposeB = attrs.transposeB === true;
    const shape = productShape(a, b, transposeA, transposeB);
    const out = product(
      addon,
      backend,
      aValues,
      bValues,
      shape,
      transposeA,
      transposeB,
      NO_EPILOGUE,
    );
    return backend.outputTensorInfo(shape.outShape, out);
  });
}

/**
 * `_FusedMatMul` (`tf.fused.matMul`): the product, then the bias and the activation (linear,
 * relu, relu6, elu, sigmoid, leakyrelu) applied to each block while it is in cache. A bias that
 * varies along the rows of the product is added in a second pass; prelu goes to the cpu kernel.
 */
export function fusedMatMulKernel(addon: NativeAddon): KernelConfig {
  return nativeKernel(_FusedMatMul, ({ inputs, backend, attrs }: NativeKernelArgs) => {
    const { a, b, bias, preluActivationWeights } = inputs as {
      a: TensorInfo;
      b: TensorInfo;
      bias?: TensorInfo;
      preluActivationWeights?: TensorInfo;
    };
    const activationName = (attrs.activation as string | undefined) ?? 'linear';
    if (preluActivationWeights !== undefined || !Object.hasOwn(FUSED_ACTIVATIONS, activationName)) {
      return undefined;
    }
    const activation = FUSED_ACTIVATIONS[activationName as keyof typeof FUSED_ACTIVATIONS];
    const alpha = typeof attrs.leakyreluAlpha === 'number' ? attrs.leakyreluAlpha : 0.2;
    const aValues = float32Values(backend, a);
    const bValues = float32Values(backend, b);
    const biasValues = bias === undefined ? null : float32Values(backend, bias);
    if (aValues === undefined || bValues === undefined || biasValues === undefined) {
      return undefined;
    }
    const transposeA = attrs.transposeA === true;
    const transposeB = attrs.transposeB === true;
    const shape = productShape(a, b, transposeA, transposeB);
    const plan: BiasPlan =
      bias === undefined ? { kind: 'rows', index: null, columnStride: 1 } : planBias(bias, shape);
    if (plan.kind === 'unsupported') return undefined;
    if (plan.kind === 'rows') {
      const out = product(addon, backend, aValues, bValues, shape, transposeA, transposeB, {
        bias: biasValues,
        biasIndex: plan.index,
        columnStride: plan.columnStride,
        activation,
        alpha,
      });
      return backend.outputTensorInfo(shape.outShape, out);
    }
    const out = product(
      addon,
      backend,
      aValues,
      bValues,
      shape,
      transposeA,
      transposeB,
      NO_EPILOGUE,
    );
    const outShape = shapeArray(shape.outShape);
    if (bias !== undefined && biasValues !== null) {
      addon.binary(
        BINARY_OPS.Add,
        out,
        outShape,
        biasValues,
        shapeArray(bias.shape),
        out,
        outShape,
      );
    }
    if (activation !== 0) addon.unary(activation, alpha, out, out);
    return backend.outputTensorInfo(shape.outShape, out);
  });
}
