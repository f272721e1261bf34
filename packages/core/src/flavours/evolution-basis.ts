/** One member of a flavour basis. */
export interface BasisFlavour {
  /** Identifier used in code and files, e.g. `Sigma` or `UBAR`. */
  readonly name: string;
  /** Label for people, e.g. `Σ`. */
  readonly label: string;
  /**
   * Particle id: the PDG Monte Carlo id for partons (21 gluon, 22 photon, ±1…±6 quarks), or
   * PineAPPL's evolution-basis id (100 Σ, 200 V, 103 T3, 203 V3, …).
   */
  readonly pid: number;
}

/**
 * The 14-flavour evolution basis in which FK tables are written, in FK-table order:
 * `[γ, Σ, g, V, V3, V8, V15, V24, V35, T3, T8, T15, T24, T35]`.
 *
 * With q± = q ± q̄ and quarks ordered (u, d, s, c, b, t):
 * Σ = Σ_q q⁺, V = Σ_q q⁻, T3 = u⁺ − d⁺, T8 = u⁺ + d⁺ − 2s⁺, T15 = u⁺ + d⁺ + s⁺ − 3c⁺,
 * T24 = u⁺ + d⁺ + s⁺ + c⁺ − 4b⁺, T35 = u⁺ + d⁺ + s⁺ + c⁺ + b⁺ − 5t⁺, and the V's likewise
 * with q⁻.
 */
export const EVOLUTION_BASIS: readonly BasisFlavour[] = [
  { name: 'photon', label: 'γ', pid: 22 },
  { name: 'Sigma', label: 'Σ', pid: 100 },
  { name: 'g', label: 'g', pid: 21 },
  { name: 'V', label: 'V', pid: 200 },
  { name: 'V3', label: 'V3', pid: 203 },
  { name: 'V8', label: 'V8', pid: 208 },
  { name: 'V15', label: 'V15', pid: 215 },
  { name: 'V24', label: 'V24', pid: 224 },
  { name: 'V35', label: 'V35', pid: 235 },
  { name: 'T3', label: 'T3', pid: 103 },
  { name: 'T8', label: 'T8', pid: 108 },
  { name: 'T15', label: 'T15', pid: 115 },
  { name: 'T24', label: 'T24', pid: 124 },
  { name: 'T35', label: 'T35', pid: 135 },
];

/** The name of an evolution-basis flavour. */
export type EvolutionFlavour =
  | 'photon'
  | 'Sigma'
  | 'g'
  | 'V'
  | 'V3'
  | 'V8'
  | 'V15'
  | 'V24'
  | 'V35'
  | 'T3'
  | 'T8'
  | 'T15'
  | 'T24'
  | 'T35';

/** Number of flavours in the FK-table evolution basis (14). */
export const EVOLUTION_BASIS_SIZE = EVOLUTION_BASIS.length;

/** The position of an evolution-basis flavour on the flavour axis of FK tables and PDFs. */
export function evolutionIndex(flavour: EvolutionFlavour): number {
  return EVOLUTION_BASIS.findIndex((member) => member.name === flavour);
}
