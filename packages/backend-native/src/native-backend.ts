import { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import type { backend_util, DataId, DataType, TensorInfo } from '@tensorflow/tfjs-core';

/**
 * At most this many bytes of freed outputs are kept for reuse: the arrays a step frees are the
 * ones the next step allocates, so the pool holds what the step's peak held anyway.
 */
const MAX_POOLED_BYTES = 2 ** 30;
/** At most this many freed outputs of one length are kept (a fit's 40-odd hadronic tables). */
const MAX_POOLED_PER_LENGTH = 64;

/**
 * The `native` backend: the cpu backend's storage (tensors are ordinary typed arrays, so every
 * cpu kernel works on them unchanged) with the hot kernels replaced by the addon's (see
 * `nativeKernels`).
 *
 * It also recycles the float32 arrays of the native kernels' outputs: a training step frees
 * and allocates the same activations every step. A fresh large `Float32Array` costs the
 * operating system's page faults and zeroing (measured ~2 ms per 27 MB, as much as the tanh
 * that fills it); a fresh small one costs V8 an external backing store and garbage-collector
 * work, and a scan batch's step makes hundreds of those (per-replica scalars, few-row
 * activations): recycling them too took the example scan from 63.7 to 50.3 s. An array is
 * reused only while nothing else can see it: it was allocated by a native kernel, never read
 * out (`dataSync`, `data`), never stored as the values of another tensor (which is how the cpu
 * kernels' views, e.g. a contiguous slice, share buffers), and its tensor is disposed.
 */
export class NativeBackend extends MathBackendCPU {
  /** Buffers of native outputs that nothing else references. */
  private readonly recyclable = new WeakSet<ArrayBufferLike>();
  /** Freed recyclable float32 arrays by length. */
  private readonly pool = new Map<number, Float32Array[]>();
  /** Freed recyclable bool arrays (the comparisons' outputs) by length. */
  private readonly boolPool = new Map<number, Uint8Array[]>();
  private pooledBytes = 0;
  /** Set while a native kernel registers its own output, which is not an alias. */
  private registeringOutput = false;

  constructor() {
    super();
    // MathBackendCPU prints "install tfjs-node to speed things up" on its first write.
    (this as unknown as { firstUse: boolean }).firstUse = false;
  }

  /**
   * A float32 array for a native kernel's output: a recycled one of the same length (holding
   * old values, which the kernel overwrites entirely) or a new one.
   */
  allocateOutput(length: number): Float32Array {
    return this.reuse(this.pool, length) ?? this.fresh(new Float32Array(length));
  }

  /** A bool array (one byte per element) for a native kernel's output, as {@link allocateOutput}. */
  allocateBoolOutput(length: number): Uint8Array {
    return this.reuse(this.boolPool, length) ?? this.fresh(new Uint8Array(length));
  }

  /**
   * Registers an array from {@link allocateOutput} (float32) or {@link allocateBoolOutput}
   * (bool) as the values of a new tensor.
   */
  outputTensorInfo(shape: number[], values: Float32Array | Uint8Array): TensorInfo {
    this.registeringOutput = true;
    try {
      return this.makeTensorInfo(shape, values instanceof Uint8Array ? 'bool' : 'float32', values);
    } finally {
      this.registeringOutput = false;
    }
  }

  override write(values: backend_util.BackendValues, shape: number[], dtype: DataType): DataId {
    if (!this.registeringOutput) this.expose(values);
    return super.write(values, shape, dtype);
  }

  override move(
    dataId: DataId,
    values: backend_util.BackendValues,
    shape: number[],
    dtype: DataType,
    refCount: number,
  ): void {
    this.expose(values);
    super.move(dataId, values, shape, dtype, refCount);
  }

  override readSync(dataId: DataId): backend_util.BackendValues {
    const values = super.readSync(dataId);
    this.expose(values);
    return values;
  }

  override disposeData(dataId: DataId, force = false): boolean {
    const values = this.data.has(dataId) ? this.data.get(dataId).values : undefined;
    const released = super.disposeData(dataId, force);
    if (this.data.has(dataId)) return released;
    if (values instanceof Float32Array) this.recycle(this.pool, values);
    if (values instanceof Uint8Array) this.recycle(this.boolPool, values);
    return released;
  }

  override dispose(): void {
    this.pool.clear();
    this.boolPool.clear();
    this.pooledBytes = 0;
    super.dispose();
  }

  /** Bytes of freed outputs currently kept for reuse. */
  get recycledBytes(): number {
    return this.pooledBytes;
  }

  /** The array may now be seen outside the backend's bookkeeping: never reuse its buffer. */
  private expose(values: backend_util.BackendValues | undefined): void {
    if (values !== undefined && ArrayBuffer.isView(values)) this.recyclable.delete(values.buffer);
  }

  /** A new output array, marked as the backend's own until something else sees it. */
  private fresh<T extends Float32Array | Uint8Array>(values: T): T {
    this.recyclable.add(values.buffer);
    return values;
  }

  private reuse<T extends Float32Array | Uint8Array>(
    pool: Map<number, T[]>,
    length: number,
  ): T | undefined {
    const pooled = pool.get(length)?.pop();
    if (pooled !== undefined) this.pooledBytes -= pooled.byteLength;
    return pooled;
  }

  private recycle<T extends Float32Array | Uint8Array>(pool: Map<number, T[]>, values: T): void {
    if (!this.recyclable.has(values.buffer)) return;
    if (values.byteOffset !== 0 || values.byteLength !== values.buffer.byteLength) return;
    if (this.pooledBytes + values.byteLength > MAX_POOLED_BYTES) return;
    const list = pool.get(values.length) ?? [];
    if (list.length >= MAX_POOLED_PER_LENGTH) return;
    list.push(values);
    pool.set(values.length, list);
    this.pooledBytes += values.byteLength;
  }
}
