import { ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { syntheticCommonData } from '../commondata/commondata.fixture.js';
import { applyPointMask } from './apply-point-mask.js';

const data = syntheticCommonData({
  name: 'TOY',
  central: [10, 20, 40],
  kinematics: [
    [0.1, 10, 0.1],
    [0.2, 20, 0.2],
    [0.3, 30, 0.3],
  ],
  uncertainties: [
    { name: 'stat', treatment: 'ADD', type: 'UNCORR', values: [1, 2, 3] },
    { name: 'norm', treatment: 'MULT', type: 'CORR', values: [1, 4, 2] },
  ],
});

describe('applyPointMask', () => {
  it('should slice central values, kinematics, uncertainties and point indices alike', () => {
    const kept = applyPointMask(data, Uint8Array.from([1, 0, 1]));
    expect(kept.ndata).toBe(2);
    expect(Array.from(kept.central)).toEqual([10, 40]);
    expect(Array.from(kept.kinematics.values)).toEqual([0.1, 10, 0.1, 0.3, 30, 0.3]);
    expect(kept.uncertainties.map((uncertainty) => Array.from(uncertainty.values))).toEqual([
      [1, 3],
      [1, 2],
    ]);
    expect(Array.from(kept.uncertainties[1].relative ?? [])).toEqual([0.1, 0.05]);
    expect(kept.uncertainties[0].relative).toBeUndefined();
    expect(Array.from(kept.pointIndices)).toEqual([0, 2]);
  });

  it('should compose: the point indices refer to the file', () => {
    const twice = applyPointMask(
      applyPointMask(data, Uint8Array.from([0, 1, 1])),
      Uint8Array.from([0, 1]),
    );
    expect(Array.from(twice.pointIndices)).toEqual([2]);
    expect(Array.from(twice.central)).toEqual([40]);
  });

  it('should refuse a mask of another length', () => {
    expect(() => applyPointMask(data, new Uint8Array(2))).toThrow(ShapeError);
    expect(() => applyPointMask(data, new Uint8Array(2))).toThrow(
      'point mask of TOY: expected shape [3] (data), got [2]',
    );
  });
});
