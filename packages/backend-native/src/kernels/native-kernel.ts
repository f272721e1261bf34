import { getKernel } from '@tensorflow/tfjs-core';
import type {
  KernelConfig,
  KernelFunc,
  NamedAttrMap,
  NamedTensorInfoMap,
  TensorInfo,
} from '@tensorflow/tfjs-core';
import type { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import type { FourByteArray } from '../addon/native-addon.js';
import { NativeBackend } from '../native-backend.js';

/** The name the backend is registered under in TensorFlow.js. */
export const NATIVE_BACKEND_NAME = 'native';

/** What a native kernel receives. */
export interface NativeKernelArgs {
  readonly inputs: NamedTensorInfoMap;
  readonly backend: NativeBackend;
  readonly attrs: NamedAttrMap;
}

/**
 * A kernel of the `native` backend: `run` computes the result in native code, or returns
 * undefined for inputs it does not handle (another dtype, a complex tensor, an edge case),
 * which then go to the cpu backend's kernel of the same name on the same tensors.
 */
export function nativeKernel(
  kernelName: string,
  run: (args: NativeKernelArgs) => TensorInfo | TensorInfo[] | undefined,
): KernelConfig {
  let fallback: KernelFunc | undefined;
  const kernelFunc: KernelFunc = (params) => {
    const { backend } = params;
    if (backend instanceof NativeBackend) {
      const result = run({ inputs: params.inputs, backend, attrs: params.attrs ?? {} });
      if (result !== undefined) return result;
    }
    fallback ??= (getKernel(kernelName, 'cpu') as KernelConfig | undefined)?.kernelFunc;
    if (fallback === undefined) {
      throw new Error(`native backend: no cpu kernel '${kernelName}' to fall back to`);
    }
    return fallback(params);
  };
  return { kernelName, backendName: NATIVE_BACKEND_NAME, kernelFunc };
}

/** The float32 values of a tensor, or undefined when it is not a plain float32 tensor. */
export function float32Values(
  backend: MathBackendCPU,
  tensor: TensorInfo,
): Float32Array | undefined {
  if (tensor.dtype !== 'float32') return undefined;
  const values = backend.data.get(tensor.dataId).values;
  return values instanceof Float32Array ? values : undefined;
}

/**
 * The float32 values of an input of one of partonfit's own kernels, which have no cpu kernel to
 * fall back to.
 *
 * @throws Error naming the kernel and the input when it is not a plain float32 tensor
 */
export function requiredFloat32Values(
  kernel: string,
  backend: MathBackendCPU,
  tensor: TensorInfo,
  name: string,
): Float32Array {
  const values = float32Values(backend, tensor);
  if (values === undefined) throw new Error(`${kernel}: ${name} must be a plain float32 tensor`);
  return values;
}

/** The values of a float32 or int32 tensor (copied bit for bit by the layout kernels). */
export function fourByteValues(
  backend: MathBackendCPU,
  tensor: TensorInfo,
): FourByteArray | undefined {
  if (tensor.dtype !== 'float32' && tensor.dtype !== 'int32') return undefined;
  const values = backend.data.get(tensor.dataId).values;
  return values instanceof Float32Array || values instanceof Int32Array ? values : undefined;
}

/**
 * An output array of the dtype of `values` (float32 or int32) and the given size, which the
 * kernel must fill entirely (float32 arrays may be recycled).
 */
export function fourByteArrayLike(
  backend: NativeBackend,
  values: FourByteArray,
  size: number,
): FourByteArray {
  return values instanceof Float32Array ? backend.allocateOutput(size) : new Int32Array(size);
}

/** Registers a kernel's output array as a tensor of the given shape. */
export function fourByteOutput(
  backend: NativeBackend,
  shape: number[],
  values: FourByteArray,
): TensorInfo {
  return values instanceof Float32Array
    ? backend.outputTensorInfo(shape, values)
    : backend.makeTensorInfo(shape, 'int32', values);
}

/** A shape as the Int32Array the addon takes. */
export function shapeArray(shape: readonly number[]): Int32Array {
  return Int32Array.from(shape);
}

/** The number of elements of a shape. */
export function sizeOf(shape: readonly number[]): number {
  let size = 1;
  for (const dim of shape) size *= dim;
  return size;
}

/** The highest rank the addon's element-wise and layout kernels take. */
export const MAX_NATIVE_RANK = 8;
