import { describe, expect, it } from 'vitest';
import { covarianceAsNdarray } from '../covariance/covariance-ndarray.js';
import { covarianceMatrix } from '../covariance/covariance-matrix.js';
import { syntheticCommonData } from './commondata.fixture.js';
import { commonDataAsNdarrays } from './commondata-ndarrays.js';

const data = syntheticCommonData({
  name: 'TOY',
  central: [10, 20],
  kinematics: [
    [0.1, 10, 0.5],
    [0.2, 20, 0.6],
  ],
  uncertainties: [
    { name: 'stat', treatment: 'ADD', type: 'UNCORR', values: [1, 2] },
    { name: 'norm', treatment: 'MULT', type: 'CORR', values: [0.5, 1] },
  ],
});

describe('commonDataAsNdarrays', () => {
  it('should view central values and kinematics and lay out the systematics table as (data, uncertainty)', () => {
    const { central, kinematics, uncertainties } = commonDataAsNdarrays(data);
    expect(central.shape).toEqual([2]);
    expect(central.data).toBe(data.central);
    expect(kinematics.shape).toEqual([2, 3]);
    expect(kinematics.get(1, 1)).toBe(20);
    expect(uncertainties.shape).toEqual([2, 2]);
    expect([
      uncertainties.get(0, 0),
      uncertainties.get(0, 1),
      uncertainties.get(1, 0),
      uncertainties.get(1, 1),
    ]).toEqual([1, 0.5, 2, 1]);
  });
});

describe('covarianceAsNdarray', () => {
  it('should view the covariance as (data, data) without copying', () => {
    const covariance = covarianceMatrix([data]);
    const view = covarianceAsNdarray(covariance);
    expect(view.shape).toEqual([2, 2]);
    expect(view.data).toBe(covariance.data);
    // C01 = 0.5 · 1 (the correlated norm).
    expect(view.get(0, 1)).toBe(0.5);
  });
});
