import { LinearAlgebraError, matrixFromRows, ShapeError } from '@partonfit/core';
import type { NpyArray } from '@partonfit/io';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { BUNDLE_Q0, bundleFromArrays, loadBundle } from './bundle.js';
import { chi2 } from './chi2.js';
import { inputFileError } from '@partonfit/testing';

const file = 'bundles/SMALL.npz';

function float64(shape: number[], values: number[]): NpyArray {
  return { dtype: 'float64', shape, data: Float64Array.from(values) };
}

/** A valid two-point bundle: 2 channels (Σ, g), 3 x nodes. */
function smallArrays(): Map<string, NpyArray> {
  return new Map<string, NpyArray>([
    ['fktable', float64([2, 2, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])],
    ['xgrid', float64([3], [0.1, 0.2, 0.3])],
    ['luminosity', { dtype: 'int64', shape: [2], data: BigInt64Array.from([1n, 2n]) }],
    ['covmat', float64([2, 2], [2, 0.5, 0.5, 1])],
    ['D', float64([2], [1, 2])],
  ]);
}

const bundleError = (arrays: ReadonlyMap<string, NpyArray>) =>
  inputFileError(() => bundleFromArrays(arrays, { file }));

function withArray(key: string, array: NpyArray): Map<string, NpyArray> {
  return new Map(smallArrays()).set(key, array);
}

describe('bundleFromArrays', () => {
  it('should map the arrays onto a DIS FK table, data and covariance', () => {
    const bundle = bundleFromArrays(smallArrays(), { file });
    expect(bundle.name).toBe('SMALL');
    expect(bundle.fkTable).toMatchObject({
      name: 'SMALL',
      hadronic: false,
      ndata: 2,
      q0: BUNDLE_Q0,
      channels: [1, 2],
    });
    expect(Array.from(bundle.fkTable.values)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(Array.from(bundle.fkTable.xGrid)).toEqual([0.1, 0.2, 0.3]);
    expect(Array.from(bundle.data)).toEqual([1, 2]);
    expect(bundle.covariance).toMatchObject({ rows: 2, columns: 2 });
    expect(bundleFromArrays(smallArrays(), { file, name: 'X', q0: 2 }).fkTable).toMatchObject({
      name: 'X',
      q0: 2,
    });
  });

  it('should name a missing array', () => {
    const arrays = smallArrays();
    arrays.delete('D');
    expect(bundleError(arrays)).toMatchObject({ file, key: 'D' });
    expect(bundleError(arrays).message).toMatch(/missing array .*fktable, xgrid/);
  });

  it.each([
    ['xgrid', float64([4], [0.1, 0.2, 0.3, 0.4]), /expected \[3\] \(x\)/],
    [
      'luminosity',
      { dtype: 'int64', shape: [1], data: BigInt64Array.from([1n]) },
      /\[2\] \(channel\)/,
    ],
    ['covmat', float64([1, 1], [1]), /expected \[2, 2\] \(data, data\)/],
    ['D', float64([3], [1, 2, 3]), /expected \[2\] \(data\)/],
    ['fktable', float64([2, 6], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), /\(data, channel, x\)/],
  ] as const)('should reject %s of a shape that does not match', (key, array, message) => {
    const error = bundleError(withArray(key, array));
    expect(error).toMatchObject({ file, key });
    expect(error.message).toMatch(message);
  });

  it.each([
    [[1n, 14n], /index 14 at position 1 is outside the evolution basis 0…13/],
    [[-1n, 2n], /index -1 at position 0 is outside/],
    [[2n, 2n], /index 2 appears twice/],
  ])('should reject the luminosity %s', (indices, message) => {
    const error = bundleError(
      withArray('luminosity', { dtype: 'int64', shape: [2], data: BigInt64Array.from(indices) }),
    );
    expect(error).toMatchObject({ key: 'luminosity' });
    expect(error.message).toMatch(message);
  });

  it('should reject NaN and infinity, naming the array and element', () => {
    const values = [1, 2, 3, 4, 5, Number.NaN, 7, 8, 9, 10, 11, 12];
    expect(bundleError(withArray('fktable', float64([2, 2, 3], values)))).toMatchObject({
      key: 'fktable',
      message: expect.stringMatching(/element 5 is NaN/) as string,
    });
    expect(bundleError(withArray('D', float64([2], [1, Infinity])))).toMatchObject({ key: 'D' });
  });

  it('should reject an x outside (0, 1]', () => {
    expect(bundleError(withArray('xgrid', float64([3], [0, 0.2, 0.3]))).message).toMatch(
      /x = 0 at position 0 is outside \(0, 1\]/,
    );
  });

  it('should reject a covariance that is not symmetric', () => {
    const error = bundleError(withArray('covmat', float64([2, 2], [2, 0.5, 0.4, 1])));
    expect(error).toMatchObject({ file, key: 'covmat' });
    expect(error.message).toMatch(/not symmetric: elements \(1, 0\) and \(0, 1\)/);
  });

  it('should reject a covariance that is not positive definite, naming the file', () => {
    const error = bundleError(withArray('covmat', float64([2, 2], [1, 2, 2, 1])));
    expect(error).toMatchObject({ file, key: 'covmat' });
    expect(error.message).toMatch(/not positive definite/);
    expect(LinearAlgebraError.isInstance(error.cause)).toBe(true);
  });
});

describe('chi2', () => {
  it('should equal (D − T)ᵀ C⁻¹ (D − T) on a 2 × 2 example', () => {
    // C⁻¹ = [[1, −0.5], [−0.5, 2]] / 1.75, r = (1, 2): (1 − 2 + 8) / 1.75 = 4
    const covariance = matrixFromRows([
      [2, 0.5],
      [0.5, 1],
    ]);
    expect(chi2(Float64Array.of(1.5, 3), Float64Array.of(0.5, 1), covariance)).toBeCloseTo(4, 13);
  });

  it('should reject lengths that do not agree and a covariance that is not positive definite', () => {
    const covariance = matrixFromRows([
      [1, 2],
      [2, 1],
    ]);
    expect(() => chi2(Float64Array.of(1), Float64Array.of(1, 2), covariance)).toThrow(ShapeError);
    expect(() => chi2(Float64Array.of(1, 2), Float64Array.of(0, 0), covariance)).toThrow(
      LinearAlgebraError,
    );
  });
});

describe.skipIf(!hasSharedData('bundles', 'npz bundle tests'))(
  'loadBundle on the real bundles',
  () => {
    it.each([
      ['HERACOMBCCEM', 42],
      ['HERACOMBNCEP920', 377],
      ['SLACP', 33],
    ])('should read %s with %i points, 9 channels and 18 x nodes', async (name, ndata) => {
      const bundle = await loadBundle(`${SHARED_DATA}bundles/${name}.npz`);
      expect(bundle.name).toBe(name);
      expect(bundle.fkTable).toMatchObject({ ndata, channels: [1, 2, 3, 4, 5, 6, 9, 10, 11] });
      expect(bundle.fkTable.values).toHaveLength(ndata * 9 * 18);
      expect(bundle.fkTable.xGrid[0]).toBeCloseTo(2e-7, 20);
      expect(bundle.fkTable.xGrid[17]).toBe(1);
      expect(bundle.data).toHaveLength(ndata);
      expect(bundle.covariance.rows).toBe(ndata);
    });
  },
);
