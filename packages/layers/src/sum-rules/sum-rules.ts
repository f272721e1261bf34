import {
  EVOLUTION_BASIS_SIZE,
  type EvolutionFlavour,
  evolutionIndex,
  oneOf,
  SUM_RULE_MODES,
} from '@partonfit/core';

/** A sum-rule mode (`fitting.sum_rules`; `true` means `ALL`, `false` means `NONE`). */
export type SumRuleMode = (typeof SUM_RULE_MODES)[number];

/**
 * One normalisation: A_f = (constant − Σ_k subtract[k] · I_k) / I_divisor, where I_k is the
 * integral of flavour k on the integration grid (of f = xf/x for the flavours in
 * {@link INTEGRATED_WITHOUT_X}, of xf for the others).
 */
export interface SumRule {
  /** The flavour the factor multiplies. */
  readonly flavour: EvolutionFlavour;
  readonly constant: number;
  /** Integrals subtracted from the constant, with their coefficients. */
  readonly subtract: Readonly<Partial<Record<EvolutionFlavour, number>>>;
  /** The integral the numerator is divided by. */
  readonly divisor: EvolutionFlavour;
}

/**
 * The flavours integrated as f = xf/x, i.e. as numbers of quarks (upstream's `xDivide` of
 * V, V3, V8, V15); all others are integrated as xf, momentum fractions.
 */
export const INTEGRATED_WITHOUT_X: readonly EvolutionFlavour[] = ['V', 'V3', 'V8', 'V15'];

/** Momentum sum rule: ∫x(Σ + g + γ) = 1 fixes the gluon, A_g = (1 − I_Σ − I_γ)/I_g. */
const MOMENTUM: readonly SumRule[] = [
  { flavour: 'g', constant: 1, subtract: { Sigma: 1, photon: 1 }, divisor: 'g' },
];

/**
 * Valence sum rules: ∫V = ∫V24 = ∫V35 = 3 (u_v + d_v + s_v + c_v with ∫u_v = 2, ∫d_v = 1,
 * ∫s_v = ∫c_v = 0), ∫V3 = 1, ∫V8 = 3, ∫V15 = 3. V24 and V35 equal V in every fit basis, so they
 * share A_V.
 */
const VALENCE: readonly SumRule[] = [
  { flavour: 'V', constant: 3, subtract: {}, divisor: 'V' },
  { flavour: 'V3', constant: 1, subtract: {}, divisor: 'V3' },
  { flavour: 'V8', constant: 3, subtract: {}, divisor: 'V8' },
  { flavour: 'V15', constant: 3, subtract: {}, divisor: 'V15' },
  { flavour: 'V24', constant: 3, subtract: {}, divisor: 'V' },
  { flavour: 'V35', constant: 3, subtract: {}, divisor: 'V' },
];

/**
 * Valence sum rules without the charm one (upstream's `ALLBUTCSR`, for fits with a charm
 * asymmetry): V15 = u_v + d_v + s_v − 3c_v is left free, and ∫c_v = (3 − I_V15)/3 follows from
 * it, so ∫V = 4 − I_V15/3 (and V24, V35 with it); V3 and V8 as in {@link VALENCE}.
 */
const VALENCE_BUT_CHARM: readonly SumRule[] = [
  { flavour: 'V', constant: 4, subtract: { V15: 1 / 3 }, divisor: 'V' },
  { flavour: 'V3', constant: 1, subtract: {}, divisor: 'V3' },
  { flavour: 'V8', constant: 3, subtract: {}, divisor: 'V8' },
  { flavour: 'V24', constant: 4, subtract: { V15: 1 / 3 }, divisor: 'V' },
  { flavour: 'V35', constant: 4, subtract: { V15: 1 / 3 }, divisor: 'V' },
];

/** The normalisations each mode imposes (upstream `MSR_Normalization`); others get A = 1. */
export const SUM_RULES: Readonly<Record<SumRuleMode, readonly SumRule[]>> = {
  ALL: [...MOMENTUM, ...VALENCE],
  MSR: MOMENTUM,
  VSR: VALENCE,
  ALLBUTCSR: [...MOMENTUM, ...VALENCE_BUT_CHARM],
  NONE: [],
};

/** The mode `name` names, in any case (saved tfjs configs lower it), or a typed error. */
export function checkSumRuleMode(name: string): SumRuleMode {
  return oneOf(name, SUM_RULE_MODES, 'mode', { loose: true });
}

/**
 * The constant arrays that turn integrals I `(replicas, 14)` into factors
 * A = (numeratorConstant + I·numeratorMatrix) / (denominatorConstant + I·denominatorMatrix),
 * all `(14)` or `(14, 14)` row-major (row: integral, column: flavour); flavours without a rule
 * get 1/1.
 */
export function sumRuleMatrices(mode: SumRuleMode): {
  numeratorConstant: Float32Array;
  numeratorMatrix: Float32Array;
  denominatorConstant: Float32Array;
  denominatorMatrix: Float32Array;
} {
  const size = EVOLUTION_BASIS_SIZE;
  const numeratorConstant = new Float32Array(size).fill(1);
  const denominatorConstant = new Float32Array(size).fill(1);
  const numeratorMatrix = new Float32Array(size * size);
  const denominatorMatrix = new Float32Array(size * size);
  for (const rule of SUM_RULES[mode]) {
    const column = evolutionIndex(rule.flavour);
    numeratorConstant[column] = rule.constant;
    denominatorConstant[column] = 0;
    denominatorMatrix[evolutionIndex(rule.divisor) * size + column] = 1;
    for (const [flavour, coefficient] of Object.entries(rule.subtract)) {
      numeratorMatrix[evolutionIndex(flavour as EvolutionFlavour) * size + column] = -coefficient;
    }
  }
  return { numeratorConstant, numeratorMatrix, denominatorConstant, denominatorMatrix };
}
