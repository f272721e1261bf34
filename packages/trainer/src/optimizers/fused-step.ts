import * as tf from '@tensorflow/tfjs-core';
import { ADAM_FAMILY_ROW_FACTORS, type AdamFamilyUpdateAttrs } from '@partonfit/backend';
import type { FusedAdamFamily, RowRange } from './update-rule.js';

/**
 * One step of an Adam-family kind on the fused kernel: each variable's per-row factors
 * `(rows, [clipnorm, momentum, gradient, rate, velocity])` and update flags, built once per
 * range of model rows for the step (uploaded, never read back). Create it inside the step's
 * `tf.tidy`.
 */
export class FusedStep {
  readonly constants: AdamFamilyUpdateAttrs;
  private readonly rowFactors: ReturnType<FusedAdamFamily['rowFactors']>;
  private readonly factorsOf = new Map<string, tf.Tensor2D>();
  private readonly updatedOf = new Map<string, tf.Tensor1D>();

  /**
   * @param clipnorms - each model row's clipnorm (one for all rows when the rule has one row of
   *   factors), or undefined when the kind does not clip
   */
  constructor(
    fused: FusedAdamFamily,
    step: number,
    private readonly clipnorms: readonly number[] | undefined,
  ) {
    this.constants = fused.constants;
    this.rowFactors = fused.rowFactors(step);
  }

  /** The factors of the model rows `rows`, `(rows, 5)`. */
  factors(rows: RowRange): tf.Tensor2D {
    const key = rows.join(',');
    const cached = this.factorsOf.get(key);
    if (cached !== undefined) return cached;
    const [start, end] = rows;
    const values = new Float32Array((end - start) * ADAM_FAMILY_ROW_FACTORS);
    for (let row = start; row < end; row++) {
      // one optimiser for every row gives one row of factors
      const own = this.rowFactors.length === 1 ? 0 : row;
      const { momentum, gradient, rate, velocity } = this.rowFactors[own];
      values.set(
        [this.clipnorms?.[own] ?? 0, momentum, gradient, rate, velocity],
        (row - start) * ADAM_FAMILY_ROW_FACTORS,
      );
    }
    const factors = tf.tensor2d(values, [end - start, ADAM_FAMILY_ROW_FACTORS]);
    this.factorsOf.set(key, factors);
    return factors;
  }

  /** The update flags of the model rows `rows`, computed by `compute` once per range. */
  updated(rows: RowRange, compute: () => tf.Tensor1D): tf.Tensor1D {
    const key = rows.join(',');
    const cached = this.updatedOf.get(key);
    if (cached !== undefined) return cached;
    const flags = compute();
    this.updatedOf.set(key, flags);
    return flags;
  }
}
