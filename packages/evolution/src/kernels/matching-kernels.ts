import type { Kernel } from './kernel.js';
import { dilogarithm, nielsenS12, ZETA2, ZETA3 } from './polylog.js';

const CF = 4 / 3;
const CA = 3;
const TR = 1 / 2;

/**
 * The O(a²) heavy-quark operator matrix elements (a = αs/4π) of the matching from nf to nf + 1
 * flavours at μ = m_h, in the MSbar scheme with a pole mass (Buza, Matiounine, Smith,
 * van Neerven, Eur. Phys. J. C1 (1998) 301; A_Hg in Vogt's parametrisation, accurate to a few
 * 10⁻³). With L = ln(μ²/m²) = 0 the O(a) terms vanish.
 */
export interface MatchingKernels {
  /** A_qq,H^NS: light quark → light quark. */
  readonly nonSinglet: Kernel;
  /** A_Hq^PS: light quark singlet → heavy quark h⁺. */
  readonly heavyFromQuark: Kernel;
  /** A_Hg^S: gluon → heavy quark h⁺. */
  readonly heavyFromGluon: Kernel;
  /** A_gq,H^S: light quark singlet → gluon. */
  readonly gluonFromQuark: Kernel;
  /** A_gg,H^S: gluon → gluon. */
  readonly gluonFromGluon: Kernel;
}

const NON_SINGLET: Kernel = {
  regular: (z) => {
    const lnz = Math.log(z);
    return (
      CF *
      TR *
      (((1 + z * z) * ((2 / 3) * lnz * lnz + (20 / 9) * lnz)) / (1 - z) +
        (8 / 3) * (1 - z) * lnz +
        44 / 27 -
        (268 / 27) * z)
    );
  },
  plus: CF * TR * (224 / 27),
  delta: CF * TR * ((-8 / 3) * ZETA3 + (40 / 9) * ZETA2 + 73 / 18),
};

const HEAVY_FROM_QUARK: Kernel = {
  regular: (z) => {
    const lnz = Math.log(z);
    const s11 = dilogarithm(1 - z);
    const s12 = nielsenS12(1 - z);
    return (
      TR *
      CF *
      ((1 + z) * (32 * s12 + 16 * lnz * s11 - 16 * ZETA2 * lnz - (4 / 3) * lnz ** 3) +
        (32 / (3 * z) + 8 - 8 * z - (32 / 3) * z * z) * (s11 - ZETA2) +
        (2 + 10 * z + (16 / 3) * z * z) * lnz * lnz -
        (56 / 3 + (88 / 3) * z + (448 / 9) * z * z) * lnz -
        448 / (27 * z) -
        4 / 3 -
        (124 / 3) * z +
        (1600 / 27) * z * z)
    );
  },
  plus: 0,
  delta: 0,
};

const HEAVY_FROM_GLUON: Kernel = {
  regular: (z) => {
    const lnz = Math.log(z);
    const ln1mz = Math.log1p(-z);
    return (
      -24.89 / z -
      187.8 +
      249.6 * z -
      146.8 * lnz * lnz * ln1mz -
      1.556 * lnz ** 3 -
      3.292 * lnz * lnz -
      93.68 * lnz -
      1.111 * ln1mz ** 3 -
      0.4 * ln1mz * ln1mz -
      2.77 * ln1mz
    );
  },
  plus: 0,
  delta: -0.006,
};

const GLUON_FROM_QUARK: Kernel = {
  regular: (z) => {
    const ln1mz = Math.log1p(-z);
    return (
      CF *
      TR *
      ((4 / 3) * (2 / z - 2 + z) * ln1mz * ln1mz +
        (8 / 9) * (10 / z - 10 + 8 * z) * ln1mz +
        (448 / z - 448 + 344 * z) / 27)
    );
  },
  plus: 0,
  delta: 0,
};

const GLUON_FROM_GLUON: Kernel = {
  regular: (z) => {
    const lnz = Math.log(z);
    const ln1mz = Math.log1p(-z);
    return (
      CF *
        TR *
        ((4 / 3) * (1 + z) * lnz ** 3 +
          (6 + 10 * z) * lnz * lnz +
          (32 + 48 * z) * lnz -
          8 / z +
          80 -
          48 * z -
          24 * z * z) +
      CA *
        TR *
        ((4 / 3) * (1 + z) * lnz * lnz +
          ((52 + 88 * z) / 9) * lnz -
          (4 / 3) * z * ln1mz +
          (556 / z - 628 + 548 * z - 700 * z * z) / 27)
    );
  },
  plus: CA * TR * (224 / 27),
  delta: -15 * CF * TR + (10 / 9) * CA * TR,
};

/** The O(a²) matching kernels at μ = m_h (they do not depend on nf). */
export const NNLO_MATCHING_KERNELS: MatchingKernels = {
  nonSinglet: NON_SINGLET,
  heavyFromQuark: HEAVY_FROM_QUARK,
  heavyFromGluon: HEAVY_FROM_GLUON,
  gluonFromQuark: GLUON_FROM_QUARK,
  gluonFromGluon: GLUON_FROM_GLUON,
};
