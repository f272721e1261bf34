import * as tf from '@tensorflow/tfjs-core';

/**
 * The transpose of a constant that a backward pass multiplies (`dY @ Bᵀ`), computed once and
 * recomputed only when the constant's data changes: a layer weight assigned by `loadWeights` or
 * `setWeights` gets new data (`tf.Variable.assign` replaces its `dataId`), so a reloaded model
 * never multiplies a stale transpose. Owns the transpose: call {@link CachedTranspose.dispose}.
 */
export class CachedTranspose {
  private source: object | undefined;
  private transposed: tf.Tensor | undefined;

  /** @param permutation - the axes permutation, `[1, 0]` for a matrix */
  constructor(private readonly permutation: readonly number[] = [1, 0]) {}

  /** The transpose of `constant`, from the cache when `constant`'s data is unchanged. */
  of<T extends tf.Tensor>(constant: T): T {
    if (this.transposed === undefined || this.source !== constant.dataId) {
      this.transposed?.dispose();
      this.transposed = tf.keep(tf.tidy(() => tf.transpose(constant, [...this.permutation])));
      this.source = constant.dataId;
    }
    return this.transposed as T;
  }

  /** Releases the cached transpose. */
  dispose(): void {
    this.transposed?.dispose();
    this.transposed = undefined;
    this.source = undefined;
  }
}
