import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { initBackend } from '../selection/init-backend.js';
import {
  ADAM_FAMILY_UPDATE_KERNEL,
  checkAdamFamilyUpdate,
  hasAdamFamilyUpdateKernel,
} from './adam-family-update.js';

function info(shape: number[], dtype: tf.DataType = 'float32'): tf.TensorInfo {
  return { dataId: {}, shape, dtype };
}

const ATTRS = { oneMinusBeta1: 0.1, oneMinusBeta2: 0.001, epsilon: 1e-7 };
const VARIABLE = info([3, 4, 5]);
const INPUTS = {
  variable: VARIABLE,
  gradient: info([3, 4, 5]),
  momentum: info([3, 4, 5]),
  velocity: info([3, 4, 5]),
  factors: info([3, 5]),
  update: info([3]),
};

describe('the Adam-family update kernel contract', () => {
  it('should read the rows, the row size and the constants of a call that fits together', () => {
    expect(checkAdamFamilyUpdate(ADAM_FAMILY_UPDATE_KERNEL, INPUTS, ATTRS)).toEqual({
      rows: 3,
      rowSize: 20,
      ...ATTRS,
    });
  });

  it('should refuse a statistic shaped unlike the variable, naming it', () => {
    expect(() =>
      checkAdamFamilyUpdate(
        ADAM_FAMILY_UPDATE_KERNEL,
        { ...INPUTS, velocity: info([3, 5, 4]) },
        ATTRS,
      ),
    ).toThrow(ShapeError);
    expect(() =>
      checkAdamFamilyUpdate(
        ADAM_FAMILY_UPDATE_KERNEL,
        { ...INPUTS, velocity: info([3, 5, 4]) },
        ATTRS,
      ),
    ).toThrow(/velocity/);
  });

  it('should refuse factors that are not five per row, and update flags that are not one per row', () => {
    expect(() =>
      checkAdamFamilyUpdate(ADAM_FAMILY_UPDATE_KERNEL, { ...INPUTS, factors: info([3, 4]) }, ATTRS),
    ).toThrow(/factors/);
    expect(() =>
      checkAdamFamilyUpdate(ADAM_FAMILY_UPDATE_KERNEL, { ...INPUTS, update: info([2]) }, ATTRS),
    ).toThrow(/update/);
  });

  it('should refuse another dtype and a missing constant', () => {
    expect(() =>
      checkAdamFamilyUpdate(
        ADAM_FAMILY_UPDATE_KERNEL,
        { ...INPUTS, gradient: info([3, 4, 5], 'int32') },
        ATTRS,
      ),
    ).toThrow(InvalidArgumentError);
    expect(() =>
      checkAdamFamilyUpdate(ADAM_FAMILY_UPDATE_KERNEL, INPUTS, { ...ATTRS, epsilon: Number.NaN }),
    ).toThrow(/epsilon/);
  });

  it('should not be registered on the cpu backend', async () => {
    await initBackend('cpu');
    expect(hasAdamFamilyUpdateKernel()).toBe(false);
  });
});
