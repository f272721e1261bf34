import * as tf from '@tensorflow/tfjs-core';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backendStatus } from '../register-native-backend.js';
import { nativeAvailable, randomValues, runOn, worstRatio } from '../testing/native.fixture.js';
import { NATIVE_ADDON_VARIABLE } from './load-addon.js';
import { OWN_KERNELS_BLAS } from './native-addon.js';

const status = backendStatus();
/** The addon the install script builds, loaded unless PARTONFIT_NATIVE_ADDON names another. */
const PACKAGE_ADDON = fileURLToPath(
  new URL('../../build/Release/partonfit_native.node', import.meta.url),
);

/** C = op(A) @ op(B) in float64, A stored (m, k) or (k, m), B stored (k, n) or (n, k). */
function float64Product(
  a: Float32Array,
  b: Float32Array,
  m: number,
  n: number,
  k: number,
  transposeA: boolean,
  transposeB: boolean,
): Float64Array {
  const out = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let p = 0; p < k; p++) {
        const left = a[transposeA ? p * m + i : i * k + p] ?? Number.NaN;
        const right = b[transposeB ? j * k + p : p * n + j] ?? Number.NaN;
        sum += left * right;
      }
      out[i * n + j] = sum;
    }
  }
  return out;
}

describe.skipIf(!nativeAvailable)('the BLAS of the native addon', () => {
  it('should say which BLAS and vector path it runs, and from which file', () => {
    if (!status.available) throw new Error(status.reason);
    expect(['OpenBLAS', 'CBLAS', OWN_KERNELS_BLAS]).toContain(status.blas);
    expect(['AVX-512', 'AVX2', 'baseline']).toContain(status.vectorPath);
    expect(status.description).toContain(`${status.vectorPath} kernels`);
    const chosen = process.env[NATIVE_ADDON_VARIABLE] ?? '';
    expect(status.addonPath).toBe(chosen === '' ? PACKAGE_ADDON : resolve(chosen));
    expect(status.description.includes(`, ${NATIVE_ADDON_VARIABLE}=`)).toBe(chosen !== '');
    expect(status.description.startsWith('C++ addon without a BLAS (own GEMM), ')).toBe(
      status.blas === OWN_KERNELS_BLAS,
    );
  });

  // Shapes no narrow, long or wide kernel takes (both sides above 64), so they run on sgemm:
  // 600 rows are split into blocks of 150 across two threads, past the own kernels' block of 144
  // rows; 8,300 columns into blocks past their 2,048 columns; 300 past their 256 inner elements.
  it.each([
    [600, 70, 300, false, false],
    [600, 70, 300, true, false],
    [600, 70, 300, false, true],
    [600, 70, 300, true, true],
    [70, 8300, 40, false, false],
    [70, 8300, 40, true, true],
    [97, 131, 1, false, false],
  ])(
    'should multiply (%i × %i, inner %i, transposeA %s, transposeB %s) like a float64 loop',
    async (m, n, k, transposeA, transposeB) => {
      const a = randomValues(m * k, 11);
      const b = randomValues(k * n, 12);
      const native = await runOn('native', () =>
        tf.matMul(
          tf.tensor(a, transposeA ? [k, m] : [m, k]),
          tf.tensor(b, transposeB ? [n, k] : [k, n]),
          transposeA,
          transposeB,
        ),
      );
      expect(native.shape).toEqual([m, n]);
      // k float32 roundings of a running sum of at most k (inputs in [−1, 1]).
      const expected = float64Product(a, b, m, n, k, transposeA, transposeB);
      expect(worstRatio(native.values, expected, 0, k * 2 ** -23)).toBeLessThanOrEqual(1);
    },
  );

  it.each([
    [4000, 300, false],
    [300, 4000, true],
  ])(
    'should multiply a (%i × %i) matrix (transposed: %s) by a vector like a float64 loop',
    async (rows, columns, transposeA) => {
      const a = randomValues(rows * columns, 13);
      const inner = transposeA ? rows : columns;
      const x = randomValues(inner, 14);
      const m = transposeA ? columns : rows;
      const native = await runOn('native', () =>
        tf.matMul(tf.tensor(a, [rows, columns]), tf.tensor(x, [inner, 1]), transposeA, false),
      );
      const expected = float64Product(a, x, m, 1, inner, transposeA, false);
      expect(worstRatio(native.values, expected, 0, inner * 2 ** -23)).toBeLessThanOrEqual(1);
    },
  );
});
