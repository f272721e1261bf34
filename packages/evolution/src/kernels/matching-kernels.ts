import type { Kernel } from './kernel.js';
import {
  dilogarithm,
  dilogarithmOfMinus,
  nielsenS12,
  nielsenS12OfMinus,
  trilogarithm,
  ZETA2,
  ZETA3,
} from './polylog.js';

const CF = 4 / 3;
const CA = 3;
const TR = 1 / 2;

/**
 * The O(a²) heavy-quark operator matrix elements (a = αs/4π) of the matching from nf to nf + 1
 * flavours at μ = m_h, in the MSbar scheme with a pole mass (Buza, Matiounine, Smith,
 * van Neerven, Eur. Phys. J. C1 (1998) 301, Appendix B, exact). With L = ln(μ²/m²) = 0 the
 * O(a) terms vanish.
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

/** A_Hg^S at μ = m: the CF·TR and CA·TR parts of BMSN's Appendix B, in polylogarithms. */
const HEAVY_FROM_GLUON: Kernel = {
  regular: (z) => {
    const lnz = Math.log(z);
    const ln1mz = Math.log1p(-z);
    const ln1pz = Math.log1p(z);
    const li2OneMinus = dilogarithm(1 - z);
    const li3OneMinus = trilogarithm(1 - z);
    const s12OneMinus = nielsenS12(1 - z);
    const li2Minus = dilogarithmOfMinus(z);
    const li3Minus = trilogarithm(-z);
    const s12Minus = nielsenS12OfMinus(z);
    const z2 = z * z;
    const pqg = 1 - 2 * z + 2 * z2;
    const pqgMinusZ = 1 + 2 * z + 2 * z2;
    const colourFactorF =
      pqg *
        (8 * ZETA3 +
          (4 / 3) * ln1mz ** 3 -
          8 * ln1mz * li2OneMinus +
          8 * ZETA2 * lnz -
          4 * lnz * ln1mz * ln1mz +
          (2 / 3) * lnz ** 3 -
          8 * lnz * li2OneMinus +
          8 * li3OneMinus -
          24 * s12OneMinus) -
      (4 + 96 * z - 64 * z2) * li2OneMinus -
      (4 - 48 * z + 40 * z2) * ZETA2 -
      (8 + 48 * z - 24 * z2) * lnz * ln1mz +
      (4 + 8 * z - 12 * z2) * ln1mz * ln1mz -
      (1 + 12 * z - 20 * z2) * lnz * lnz -
      (52 * z - 48 * z2) * ln1mz -
      (16 + 18 * z + 48 * z2) * lnz +
      26 -
      82 * z +
      80 * z2 +
      z2 * (-16 * ZETA2 * lnz + (4 / 3) * lnz ** 3 + 16 * lnz * li2OneMinus + 32 * s12OneMinus);
    const colourFactorA =
      pqg * ((-4 / 3) * ln1mz ** 3 + 8 * ln1mz * li2OneMinus - 8 * li3OneMinus) +
      pqgMinusZ *
        (-8 * ZETA2 * ln1pz -
          16 * ln1pz * li2Minus -
          8 * lnz * ln1pz * ln1pz +
          4 * lnz * lnz * ln1pz +
          8 * lnz * li2Minus -
          8 * li3Minus -
          16 * s12Minus) +
      (16 + 64 * z) * (2 * s12OneMinus + lnz * li2OneMinus) -
      ((4 + 8 * z) / 3) * lnz ** 3 +
      (8 - 32 * z + 16 * z2) * ZETA3 -
      (16 + 64 * z) * ZETA2 * lnz +
      (16 * z + 16 * z2) * (li2Minus + lnz * ln1pz) +
      (32 / (3 * z) + 12 + 64 * z - (272 / 3) * z2) * li2OneMinus -
      (12 + 48 * z - (260 / 3) * z2 + 32 / (3 * z)) * ZETA2 -
      4 * z2 * lnz * ln1mz -
      (2 + 8 * z - 10 * z2) * ln1mz * ln1mz +
      (2 + 8 * z + (46 / 3) * z2) * lnz * lnz +
      (4 + 16 * z - 16 * z2) * ln1mz -
      (56 / 3 + (172 / 3) * z + (1600 / 9) * z2) * lnz -
      448 / (27 * z) -
      4 / 3 -
      (628 / 3) * z +
      (6352 / 27) * z2;
    return TR * (CF * colourFactorF + CA * colourFactorA);
  },
  plus: 0,
  delta: 0,
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
