import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { initBackend } from '../selection/init-backend.js';
import {
  checkKeepBestRows,
  checkStoppingUpdate,
  hasStoppingKernels,
  KEEP_BEST_ROWS_KERNEL,
  STOPPING_LOSSES,
  STOPPING_STATE,
  STOPPING_UPDATE_KERNEL,
} from './stopping-update.js';

function info(shape: number[], dtype: tf.DataType = 'float32'): tf.TensorInfo {
  return { dataId: {}, shape, dtype };
}

const INPUTS = Object.fromEntries(
  [...STOPPING_LOSSES, ...STOPPING_STATE, 'patience', 'epochLimit'].map((name) => [
    name,
    info([4]),
  ]),
);
const ATTRS = { epoch: 7, thresholdChi2: 5, positivityThreshold: 1e-6, delta: 0 };

describe('the stopping kernels contract', () => {
  it('should read the replicas of a stopping update that fits together', () => {
    expect(checkStoppingUpdate(STOPPING_UPDATE_KERNEL, INPUTS, ATTRS)).toBe(4);
  });

  it('should refuse a missing or misshapen input and a missing attribute, naming it', () => {
    const withoutPatience = Object.fromEntries(
      Object.entries(INPUTS).filter(([name]) => name !== 'patience'),
    );
    expect(() => checkStoppingUpdate(STOPPING_UPDATE_KERNEL, withoutPatience, ATTRS)).toThrow(
      /patience: missing/,
    );
    expect(() =>
      checkStoppingUpdate(STOPPING_UPDATE_KERNEL, { ...INPUTS, waiting: info([3]) }, ATTRS),
    ).toThrow(ShapeError);
    expect(() =>
      checkStoppingUpdate(STOPPING_UPDATE_KERNEL, INPUTS, { ...ATTRS, epoch: undefined as never }),
    ).toThrow(/epoch/);
  });

  it('should read each weight of a snapshot and refuse rows outside the replicas', () => {
    const inputs = {
      best: info([4]),
      weight0: info([4, 3]),
      bestWeight0: info([4, 3]),
      weight1: info([2, 5]),
      bestWeight1: info([2, 5]),
    };
    const { weights } = checkKeepBestRows(KEEP_BEST_ROWS_KERNEL, inputs, { starts: [0, 2] });
    expect(weights.map(({ start, rows }) => [start, rows])).toEqual([
      [0, 4],
      [2, 2],
    ]);
    expect(() => checkKeepBestRows(KEEP_BEST_ROWS_KERNEL, inputs, { starts: [0, 3] })).toThrow(
      InvalidArgumentError,
    );
    expect(() =>
      checkKeepBestRows(
        KEEP_BEST_ROWS_KERNEL,
        { ...inputs, bestWeight1: info([2, 4]) },
        { starts: [0, 2] },
      ),
    ).toThrow(/bestWeight1/);
  });

  it('should not be registered on the cpu backend', async () => {
    await initBackend('cpu');
    expect(hasStoppingKernels()).toBe(false);
  });
});
