import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import type { HadronicFkTensor } from '@partonfit/core';
import { loadFkTable, toFkTensor } from '@partonfit/fktables';
import { FkConvolution, fkTensorValues, type Formulations } from '@partonfit/layers';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { beforeAll, describe, expect, it } from 'vitest';
import { measureGenericZeroRows, measureGenericZeroRowsWithinBudget } from './generic-path.js';

const TTBAR = 'theory_200/fastkernel/FK_ATLASTTBARTOT13TEV.dat';
const present = hasSharedData(TTBAR, 'compact against dense on the real tt̄ table');
const LUMINOSITY: Formulations = { dis: 'compact', hadronic: 'luminosity' };

/** A 2-channel, 4-node, 2-point table whose x1 = 0 rows are zero for both points. */
function smallTable(): HadronicFkTensor {
  const nx = 4;
  const channels = [
    [1, 2],
    [2, 2],
  ] as const;
  const values = new Float32Array(nx * nx * channels.length * 2);
  values.forEach((_, i) => {
    const a = Math.floor(i / (nx * channels.length * 2));
    values[i] = a === 0 ? 0 : 1 + (i % 7);
  });
  return { kind: 'hadronic', name: 'SMALL', ndata: 2, nx, xOffset: 0, channels, values };
}

/** The largest |a − b| over the largest |b|. */
function relativeDifference(a: Float32Array, b: Float32Array): number {
  const scale = Math.max(...b.map(Math.abs));
  return Math.max(...a.map((value, i) => Math.abs(value - b[i]))) / scale;
}

describe('the generic path with zero rows dropped', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('should time both variants and count the zero rows of a group', () => {
    const entries = measureGenericZeroRows({ name: 'small', tables: [smallTable()] }, [1, 3], 2);
    expect(entries.map((entry) => entry.replicas)).toEqual([1, 3]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ name: 'small', tables: 1, rows: 32, zeroRowShare: 0.25 });
      expect(entry.denseMs).toBeGreaterThan(0);
      expect(entry.compactMs).toBeGreaterThan(0);
    }
  });

  it('should leave out the replica counts projected above the budget', () => {
    const group = { name: 'small', tables: [smallTable()] };
    const entries = measureGenericZeroRowsWithinBudget(group, [10, 1], 1, 0);
    expect(entries.map((entry) => entry.replicas)).toEqual([1]);
  });

  it.skipIf(!present)(
    'should predict and differentiate as the dense path on the real tt̄ table',
    async () => {
      const table = toFkTensor(await loadFkTable(SHARED_DATA + TTBAR), 0);
      if (table.kind !== 'hadronic') throw new Error(`${TTBAR} is not hadronic`);
      const values = fkTensorValues(table, LUMINOSITY);
      const fk = tf.tensor2d(values, [values.length / table.ndata, table.ndata]);
      const pdf = tf.randomUniform<tf.Rank.R3>([3, table.nx, 14], 0.1, 1, 'float32', 5);
      const dy = tf.randomUniform([3, table.ndata], -1, 1, 'float32', 6);
      const results = [2, 0].map((share) => {
        const convolution = new FkConvolution(table, LUMINOSITY, 'auto', share);
        const predictions = convolution.apply(pdf, fk);
        const [gradient] = tf.grads((input: tf.Tensor) =>
          tf.sum(tf.mul(convolution.apply(input as tf.Tensor3D, fk), dy)),
        )([pdf]);
        const result = {
          predictions: predictions.dataSync() as Float32Array,
          gradient: gradient.dataSync() as Float32Array,
        };
        tf.dispose([predictions, gradient]);
        convolution.dispose();
        return result;
      });
      tf.dispose([fk, pdf, dy]);
      const [dense, compact] = results;
      expect(dense.predictions[0]).toBeGreaterThan(100);
      expect(relativeDifference(compact.predictions, dense.predictions)).toBeLessThan(1e-5);
      expect(relativeDifference(compact.gradient, dense.gradient)).toBeLessThan(1e-5);
    },
  );
});
