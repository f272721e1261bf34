import * as tf from '@tensorflow/tfjs-core';
import { ShapeError, type HadronicFkTensor } from '@partonfit/core';
import { describeOnBackends } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { expectClose, randomArray, tensorGrowth, toFloat32 } from '../ops/numeric.fixture.js';
import {
  CachedCompaction,
  compactFkValues,
  compactLuminosityContraction,
  compactLuminosityRows,
  minDroppedRowShare,
} from './compact-luminosity.js';
import { FkConvolution, fkTensorValues, type Formulations } from './fk-convolution.js';

const LUMINOSITY: Formulations = { dis: 'compact', hadronic: 'luminosity' };

/**
 * A random hadronic table in core's layout, zero where `x1 · x2 < τₙ` for each data point n
 * (τ ascending, so that the first point's limit zeroes whole rows) and in every row of
 * `zeroChannel`, and zero at a scattered 10 % of the (x1, x2) pairs of the other channels: runs
 * of kept x2 nodes that start, stop and restart within one x1 node.
 */
function sparseTable(nx: number, ndata: number, xOffset: number, seed: number): HadronicFkTensor {
  const channels = [
    [1, 2],
    [2, 2],
    [3, 9],
    [2, 1],
    [10, 4],
  ] as const;
  const zeroChannel = 2;
  const x = Array.from({ length: nx }, (_, a) => 10 ** (-4 + (4 * a) / nx));
  const tau = Array.from({ length: ndata }, (_, n) => 10 ** (-6 + n / ndata));
  const random = randomArray(nx * nx * channels.length * ndata, seed, 0, 1);
  const values = new Float32Array(random.length);
  for (let a = 0; a < nx; a++) {
    for (let b = 0; b < nx; b++) {
      const scattered = (a * 7 + b * 3) % 10 === 0;
      channels.forEach((_, c) => {
        for (let n = 0; n < ndata; n++) {
          const i = ((a * nx + b) * channels.length + c) * ndata + n;
          const zero = x[a] * x[b] < tau[n] || c === zeroChannel || scattered;
          values[i] = zero ? 0 : random[i];
        }
      });
    }
  }
  return { kind: 'hadronic', name: 'SPARSE', ndata, nx, xOffset, channels, values };
}

/** Predictions and PDF gradient of Σ dy ⊙ predictions of one convolution. */
function predictAndDifferentiate(
  convolution: FkConvolution,
  pdf: tf.Tensor3D,
  fk: tf.Tensor2D,
  dy: tf.Tensor2D,
): { predictions: Float32Array; gradient: Float32Array } {
  return tf.tidy(() => {
    const predictions = convolution.apply(pdf, fk).dataSync() as Float32Array;
    const [gradient] = tf.grads((input: tf.Tensor) =>
      tf.sum(tf.mul(convolution.apply(input as tf.Tensor3D, fk), dy)),
    )([pdf]);
    return { predictions, gradient: gradient.dataSync() as Float32Array };
  });
}

/** The compact and the dense convolution of a table on one PDF, both results. */
export function compactAgainstDense(
  table: HadronicFkTensor,
  replicas: number,
  xPoints: number,
  storage: 'keep' | 'recompute' = 'keep',
) {
  const values = fkTensorValues(table, LUMINOSITY);
  const fk = tf.tensor2d(values, [values.length / table.ndata, table.ndata]);
  const pdf = tf.tensor3d(toFloat32(randomArray(replicas * xPoints * 14, 7, 0.1, 1)), [
    replicas,
    xPoints,
    14,
  ]);
  const dy = tf.tensor2d(toFloat32(randomArray(replicas * table.ndata, 8)), [
    replicas,
    table.ndata,
  ]);
  const compact = new FkConvolution(table, LUMINOSITY, storage, 0);
  const dense = new FkConvolution(table, LUMINOSITY, storage, 2);
  try {
    return {
      compact: predictAndDifferentiate(compact, pdf, fk, dy),
      dense: predictAndDifferentiate(dense, pdf, fk, dy),
      growth: tensorGrowth(() => {
        predictAndDifferentiate(compact, pdf, fk, dy);
      }, 3),
    };
  } finally {
    compact.dispose();
    dense.dispose();
    tf.dispose([fk, pdf, dy]);
  }
}

describe('compactLuminosityRows', () => {
  it('should keep the rows with a non-zero value for some data point', () => {
    // 4 rows of 2 data points: rows 1 and 3 are zero for both
    const values = Float32Array.from([1, 0, 0, 0, 0, -2, 0, 0]);
    const rows = compactLuminosityRows(values, 4);
    expect([...rows.rows]).toEqual([0, 2]);
    expect(rows.droppedShare).toBe(0.5);
    expect([...compactFkValues(values, rows.rows, 2)]).toEqual([1, 0, 0, -2]);
  });

  it('should reject values that are not a whole number of rows', () => {
    expect(() => compactLuminosityRows(new Float32Array(7), 4)).toThrow(ShapeError);
  });
});

describeOnBackends(
  'compact hadronic contraction',
  (backend) => {
    it('should take the backend break-even share by default', () => {
      expect(minDroppedRowShare()).toBe(backend === 'cpu' ? 0 : 0.5);
    });

    it('should equal the dense contraction and its gradient on a table with zero blocks', () => {
      const table = sparseTable(12, 5, 3, 1);
      const { compact, dense, growth } = compactAgainstDense(table, 3, 20);
      expectClose(compact.predictions, dense.predictions, 1e-5);
      expectClose(compact.gradient, dense.gradient, 1e-5);
      expect(Math.max(...dense.gradient.map(Math.abs))).toBeGreaterThan(0);
      expect(growth).toBe(0);
    });

    it('should equal the dense contraction with the FK transpose recomputed', () => {
      const table = sparseTable(9, 6, 0, 2);
      const { compact, dense } = compactAgainstDense(table, 2, 9, 'recompute');
      expect(Math.max(...dense.predictions.map(Math.abs))).toBeGreaterThan(0);
      expectClose(compact.predictions, dense.predictions, 1e-5);
      expectClose(compact.gradient, dense.gradient, 1e-5);
    });

    it('should equal the dense contraction on a table of one data point', () => {
      const table = sparseTable(10, 1, 2, 5);
      const { compact, dense, growth } = compactAgainstDense(table, 4, 14);
      expectClose(compact.predictions, dense.predictions, 1e-5);
      expectClose(compact.gradient, dense.gradient, 1e-5);
      expect(growth).toBe(0);
    });

    it('should keep a table dense below the share and rebuild when its data changes', () => {
      const table = sparseTable(8, 3, 0, 3);
      const values = fkTensorValues(table, LUMINOSITY);
      const { droppedShare } = compactLuminosityRows(values, values.length / table.ndata);
      const fk = tf.variable(tf.tensor2d(values, [values.length / table.ndata, table.ndata]));
      const above = new CachedCompaction(table.channels, table.nx, droppedShare + 0.01, true);
      const below = new CachedCompaction(table.channels, table.nx, droppedShare, true);
      expect(above.of(fk)).toBeUndefined();
      const first = below.of(fk);
      expect(first?.droppedShare).toBe(droppedShare);
      expect(below.of(fk)).toBe(first);
      fk.assign(tf.zerosLike(fk));
      expect(below.of(fk)).toBeUndefined();
      above.dispose();
      below.dispose();
      fk.dispose();
    });

    it('should reject a PDF on other x nodes than the table', () => {
      const table = sparseTable(6, 2, 0, 4);
      const values = fkTensorValues(table, LUMINOSITY);
      const fk = tf.tensor2d(values, [values.length / table.ndata, table.ndata]);
      const cache = new CachedCompaction(table.channels, table.nx, 0, false);
      const compact = cache.of(fk);
      expect(compact).toBeDefined();
      if (compact === undefined) return;
      expect(() => compactLuminosityContraction(tf.ones([1, 7, 14]), compact)).toThrow(ShapeError);
      cache.dispose();
      fk.dispose();
    });
  },
  ['cpu', 'wasm'],
);
