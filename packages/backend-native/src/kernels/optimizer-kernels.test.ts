import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { ADAM_FAMILY_UPDATE_KERNEL, runAdamFamilyUpdate } from '@partonfit/backend';
import { nativeAvailable, randomValues } from '../testing/native.fixture.js';

const ROWS = 4;
const ROW_SIZE = 30;
const ATTRS = { oneMinusBeta1: 1 - 0.9, oneMinusBeta2: 1 - 0.999, epsilon: 1e-7 };
/**
 * Each row's `(clipnorm, momentumWeight, gradientWeight, rate, velocityWeight)`: an Adam row that
 * clips, a Nadam row that clips, an Adam row without clipping, a Nadam row the update skips.
 */
const FACTORS = [
  [0.05, 0.0123, 0, 1, 1],
  [0.2, 0.9381, 0.5312, 2.6e-3, 1.0001],
  [0, 0.0077, 0, 1, 1],
  [0.05, 0.9381, 0.5312, 2.6e-3, 1.0001],
];
const UPDATE = [1, 1, 1, 0];

/** The formula of the kernel's contract, one float32 rounding after every operation. */
function referenceUpdate(
  variable: Float32Array,
  gradient: Float32Array,
  momentum: Float32Array,
  velocity: Float32Array,
): Float32Array[] {
  const f = Math.fround;
  const out = [0, 1, 2].map(() => new Float32Array(variable.length));
  const c1 = f(ATTRS.oneMinusBeta1);
  const c2 = f(ATTRS.oneMinusBeta2);
  const epsilon = f(ATTRS.epsilon);
  for (let r = 0; r < ROWS; r++) {
    const [clipnorm, momentumWeight, gradientWeight, rate, velocityWeight] = FACTORS[r].map(f);
    let squares = 0;
    for (let i = 0; i < ROW_SIZE; i++) {
      const g = gradient[r * ROW_SIZE + i];
      squares = f(squares + f(g * g));
    }
    const scale = clipnorm > 0 ? f(clipnorm / Math.max(f(Math.sqrt(squares)), clipnorm)) : 1;
    for (let i = 0; i < ROW_SIZE; i++) {
      const at = r * ROW_SIZE + i;
      if (UPDATE[r] === 0) {
        out[0][at] = variable[at];
        out[1][at] = momentum[at];
        out[2][at] = velocity[at];
        continue;
      }
      const g = clipnorm > 0 ? f(gradient[at] * scale) : gradient[at];
      const m = f(momentum[at] + f(f(g - momentum[at]) * c1));
      const v = f(velocity[at] + f(f(f(g * g) - velocity[at]) * c2));
      let momentumHat = f(m * momentumWeight);
      if (gradientWeight !== 0) momentumHat = f(momentumHat + f(g * gradientWeight));
      const velocityHat = velocityWeight === 1 ? v : f(v * velocityWeight);
      const step = rate === 1 ? momentumHat : f(momentumHat * rate);
      out[0][at] = f(variable[at] - f(step / f(f(Math.sqrt(velocityHat)) + epsilon)));
      out[1][at] = m;
      out[2][at] = v;
    }
  }
  return out;
}

describe.skipIf(!nativeAvailable)('the fused Adam-family update on native', () => {
  const shape = [ROWS, 5, ROW_SIZE / 5];
  const variable = randomValues(ROWS * ROW_SIZE, 11);
  const gradient = randomValues(ROWS * ROW_SIZE, 12, -0.1, 0.1);
  const momentum = randomValues(ROWS * ROW_SIZE, 13, -0.01, 0.01);
  const velocity = randomValues(ROWS * ROW_SIZE, 14, 0, 1e-3);

  async function update(gradients: Float32Array): Promise<Float32Array[]> {
    await tf.setBackend('native');
    const inputs = {
      variable: tf.tensor(variable, shape),
      gradient: tf.tensor(gradients, shape),
      momentum: tf.tensor(momentum, shape),
      velocity: tf.tensor(velocity, shape),
      factors: tf.tensor2d(FACTORS.flat(), [ROWS, 5]),
      update: tf.tensor1d(UPDATE),
    };
    const outputs = runAdamFamilyUpdate(inputs, ATTRS);
    const values = outputs.map((output) => output.dataSync() as Float32Array);
    tf.dispose([...outputs, ...Object.values(inputs)]);
    return values;
  }

  it('should give the contract formula, rounded to float32 after every operation, row by row', async () => {
    const actual = await update(gradient);
    const expected = referenceUpdate(variable, gradient, momentum, velocity);
    // the norm's sum may be ordered otherwise: a few float32 ulps at most
    for (const [k, name] of ['variable', 'momentum', 'velocity'].entries()) {
      const worst = Math.max(
        ...actual[k].map((value, i) => Math.abs(value - expected[k][i]) / Math.abs(expected[k][i])),
      );
      expect({ name, worst: worst < 1e-6 }).toEqual({ name, worst: true });
    }
    // the weights moved where they were updated, and not where the row is skipped
    expect(actual[0][0]).not.toBe(variable[0]);
    expect(Array.from(actual[0].subarray(3 * ROW_SIZE))).toEqual(
      Array.from(variable.subarray(3 * ROW_SIZE)),
    );
  });

  it('should keep a NaN gradient in its own row', async () => {
    const poisoned = Float32Array.from(gradient);
    poisoned[ROW_SIZE + 7] = Number.NaN;
    const clean = await update(gradient);
    const actual = await update(poisoned);
    expect(Number.isNaN(actual[0][ROW_SIZE + 7])).toBe(true);
    for (const row of [0, 2, 3]) {
      const slice = (values: Float32Array) =>
        Array.from(values.subarray(row * ROW_SIZE, (row + 1) * ROW_SIZE));
      expect(slice(actual[0])).toEqual(slice(clean[0]));
      expect(slice(actual[1])).toEqual(slice(clean[1]));
    }
  });

  it('should be the registered kernel of the native backend', async () => {
    await tf.setBackend('native');
    expect(tf.getKernelsForBackend('native').map((kernel) => kernel.kernelName)).toContain(
      ADAM_FAMILY_UPDATE_KERNEL,
    );
  });
});
