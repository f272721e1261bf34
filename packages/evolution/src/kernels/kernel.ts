/**
 * A kernel K(z) of an x-space convolution (a splitting function or an operator matrix element),
 * as a distribution on 0 < z ≤ 1:
 * K(z) = R(z) + A·[1/(1 − z)]₊ + D·δ(1 − z), acting on x·f as
 * (K ⊗ xf)(x) = ∫_x^1 dz [R(z)·xf(x/z) + A·(xf(x/z) − xf(x))/(1 − z)] + (A·ln(1 − x) + D)·xf(x).
 */
export interface Kernel {
  /** R(z): the regular part, integrable on (0, 1). */
  readonly regular: (z: number) => number;
  /** A: the coefficient of the plus distribution 1/(1 − z)₊. */
  readonly plus: number;
  /** D: the coefficient of δ(1 − z). */
  readonly delta: number;
}

/** The sum of two kernels. */
export function addKernels(first: Kernel, second: Kernel): Kernel {
  return {
    regular: (z) => first.regular(z) + second.regular(z),
    plus: first.plus + second.plus,
    delta: first.delta + second.delta,
  };
}

/**
 * The kernels of one perturbative order in the evolution basis: non-singlet plus (T_k), minus
 * (V_k) and valence (V), and the singlet matrix ((qq, qg), (gq, gg)) acting on (Σ, g).
 */
export interface SplittingKernels {
  readonly nsPlus: Kernel;
  readonly nsMinus: Kernel;
  readonly nsValence: Kernel;
  readonly qq: Kernel;
  readonly qg: Kernel;
  readonly gq: Kernel;
  readonly gg: Kernel;
}
