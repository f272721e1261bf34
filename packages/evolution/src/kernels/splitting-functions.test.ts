import { describe, expect, it } from 'vitest';
import { NNLO_MATCHING_KERNELS } from './matching-kernels.js';
import { kernelMoment } from './moments.js';
import {
  dilogarithm,
  nielsenS12,
  nielsenS12OfMinus,
  s2Function,
  trilogarithm,
  ZETA2,
  ZETA3,
} from './polylog.js';
import { splittingKernels } from './splitting-functions.js';

const CF = 4 / 3;

/** S1(N) = Σ_{k=1}^{N} 1/k. */
function harmonic(n: number): number {
  let sum = 0;
  for (let k = 1; k <= n; k++) sum += 1 / k;
  return sum;
}

describe('polylogarithms', () => {
  it('should give the known values of Li2, S12 and S2', () => {
    expect(dilogarithm(0.5)).toBeCloseTo(ZETA2 / 2 - Math.log(2) ** 2 / 2, 14);
    expect(dilogarithm(1)).toBe(ZETA2);
    expect(nielsenS12(0.5)).toBeCloseTo(ZETA3 / 8 - Math.log(2) ** 3 / 6, 14);
    expect(trilogarithm(0.5)).toBeCloseTo(
      (7 / 8) * ZETA3 - (ZETA2 / 2) * Math.log(2) + Math.log(2) ** 3 / 6,
      14,
    );
    expect(trilogarithm(-1)).toBeCloseTo((-3 / 4) * ZETA3, 14);
    expect(nielsenS12OfMinus(1)).toBeCloseTo(ZETA3 / 8, 14);
    // S2(1) = −2 Li2(−1) − π²/6 = 0
    expect(s2Function(1)).toBeCloseTo(0, 14);
  });
});

describe('splittingKernels', () => {
  it('should give the LO non-singlet anomalous dimension in closed form', () => {
    for (const n of [1, 2, 3, 4]) {
      const expected = 2 * CF * (1.5 + 1 / (n * (n + 1)) - 2 * harmonic(n));
      expect(kernelMoment(splittingKernels(0, 4).nsPlus, n)).toBeCloseTo(expected, 10);
    }
  });

  it.each([0, 1] as const)(
    'should conserve quark number and momentum exactly at order %i',
    (order) => {
      for (const nf of [3, 4, 5]) {
        const kernels = splittingKernels(order, nf);
        expect(kernelMoment(kernels.nsMinus, 1)).toBeCloseTo(0, 9);
        expect(kernelMoment(kernels.qq, 2) + kernelMoment(kernels.gq, 2)).toBeCloseTo(0, 9);
        expect(kernelMoment(kernels.qg, 2) + kernelMoment(kernels.gg, 2)).toBeCloseTo(0, 9);
      }
    },
  );

  it('should conserve them at NNLO to the accuracy of the parametrisations (10⁻⁴ relative)', () => {
    const kernels = splittingKernels(2, 4);
    const scale = Math.abs(kernelMoment(kernels.nsPlus, 2));
    expect(Math.abs(kernelMoment(kernels.nsMinus, 1))).toBeLessThan(1e-4 * scale);
    expect(Math.abs(kernelMoment(kernels.nsValence, 1))).toBeLessThan(1e-4 * scale);
    expect(Math.abs(kernelMoment(kernels.qq, 2) + kernelMoment(kernels.gq, 2))).toBeLessThan(
      1e-4 * scale,
    );
    expect(Math.abs(kernelMoment(kernels.qg, 2) + kernelMoment(kernels.gg, 2))).toBeLessThan(
      1e-4 * scale,
    );
  });
});

describe('NNLO_MATCHING_KERNELS', () => {
  it('should conserve quark number and momentum across a threshold', () => {
    const kernels = NNLO_MATCHING_KERNELS;
    expect(kernelMoment(kernels.nonSinglet, 1)).toBeCloseTo(0, 9);
    expect(
      kernelMoment(kernels.nonSinglet, 2) +
        kernelMoment(kernels.heavyFromQuark, 2) +
        kernelMoment(kernels.gluonFromQuark, 2),
    ).toBeCloseTo(0, 9);
    expect(
      kernelMoment(kernels.heavyFromGluon, 2) + kernelMoment(kernels.gluonFromGluon, 2),
    ).toBeCloseTo(0, 8);
  });
});
