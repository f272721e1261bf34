import { InvalidArgumentError, matrixFromRows, SeededRandom } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { closureCovariance, fluctuateData } from './closure-uncertainties.js';

describe('closureCovariance', () => {
  it('should add uncorrelated σ² on the diagonal to the normalisation ν² T_i T_j', () => {
    const values = Float64Array.from([2, -1, 4]);
    const reference = Float64Array.from([2, 5, 4]);
    const covariance = closureCovariance(values, reference, {
      uncorrelated: 0.1,
      normalisation: 0.5,
    });
    const expected = [
      [0.04 + 1, -0.5, 2],
      [-0.5, 0.25 + 0.25, -1],
      [2, -1, 0.16 + 4],
    ];
    expected.flat().forEach((value, k) => {
      expect(covariance.data[k]).toBeCloseTo(value, 15);
    });
  });

  it('should reject uncertainties and references that give no positive-definite covariance', () => {
    const values = Float64Array.from([1, 2]);
    expect(() =>
      closureCovariance(values, values, { uncorrelated: 0, normalisation: 0.1 }),
    ).toThrow('uncertainty: expected uncorrelated > 0 and normalisation ≥ 0, got 0, 0.1');
    expect(() =>
      closureCovariance(values, values, { uncorrelated: 0.1, normalisation: -0.1 }),
    ).toThrow(InvalidArgumentError);
    expect(() =>
      closureCovariance(values, Float64Array.from([1, 0]), {
        uncorrelated: 0.1,
        normalisation: 0,
      }),
    ).toThrow('reference: point 1 is 0: relative uncertainties need a finite, non-zero reference');
    expect(() =>
      closureCovariance(Float64Array.from([1, Number.NaN]), values, {
        uncorrelated: 0.1,
        normalisation: 0,
      }),
    ).toThrow('values: point 1 is NaN');
    expect(() =>
      closureCovariance(values, Float64Array.from([1]), { uncorrelated: 0.1, normalisation: 0 }),
    ).toThrow('reference: has 1 points, the values have 2');
  });
});

describe('fluctuateData', () => {
  it('should shift the predictions by L·z, z the seed’s normal draws', () => {
    const covariance = matrixFromRows([
      [4, 2],
      [2, 5],
    ]);
    // L = [[2, 0], [1, 2]]
    const [z0, z1] = new SeededRandom(42).normals(2);
    const data = fluctuateData(Float64Array.from([10, 20]), covariance, 42);
    expect(data[0]).toBeCloseTo(10 + 2 * z0, 14);
    expect(data[1]).toBeCloseTo(20 + z0 + 2 * z1, 14);
    expect(Array.from(fluctuateData(Float64Array.from([10, 20]), covariance, 42))).toEqual(
      Array.from(data),
    );
  });
});
