import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { createMatrix, type Matrix } from '../linalg/matrix.js';
import {
  EVOLUTION_BASIS,
  EVOLUTION_BASIS_SIZE,
  evolutionIndex,
  type EvolutionFlavour,
} from './evolution-basis.js';
import { FLAVOUR_BASIS, type LhaFlavour } from './flavour-basis.js';
import { FLAVOUR_TO_EVOLUTION } from './rotations.js';

/** The fit bases partonfit can fit in, by n3fit's `fitting.fitbasis` names. */
export type FitBasisName = 'EVOL' | 'NN31IC' | 'FLAVOUR' | 'CCBAR_ASYMM';

/** The fit bases, in the order they are documented. */
export const FIT_BASIS_NAMES: readonly FitBasisName[] = [
  'EVOL',
  'NN31IC',
  'FLAVOUR',
  'CCBAR_ASYMM',
];

/**
 * The 9-component basis n3fit rotates every fit basis into before the FK basis:
 * `[Σ, g, V, V3, V8, T3, T8, c⁺, V15]`, with c⁺ = c + c̄.
 */
type IntermediateFlavour = 'Sigma' | 'g' | 'V' | 'V3' | 'V8' | 'T3' | 'T8' | 'cplus' | 'V15';

/** A linear combination of fitted flavours, as `{ fittedName: coefficient }`. */
type Combination = Readonly<Record<string, number>>;

/** A fit basis: the flavours the network outputs, and how they make up the 9-basis. */
export interface FitBasisDefinition {
  readonly name: FitBasisName;
  /** The fitted flavours by their runcard `fl` names, in upstream's usual order. */
  readonly flavours: readonly string[];
  /** Each 9-basis component as a combination of fitted flavours (absent: zero). */
  readonly intermediate: Readonly<Record<IntermediateFlavour, Combination>>;
}

const EVOLUTION_LIKE = {
  Sigma: { sng: 1 },
  g: { g: 1 },
  V: { v: 1 },
  V3: { v3: 1 },
  V8: { v8: 1 },
  T3: { t3: 1 },
  T8: { t8: 1 },
} as const;

/**
 * The fit bases as upstream defines them (validphys `pdfbases.fitbasis_to_NN31IC`):
 *
 * - EVOL: `sng, g, v, v3, v8, t3, t8, t15`; c⁺ = (Σ − T15)/4, V15 = V (no charm asymmetry).
 * - NN31IC: `sng, g, v, v3, v8, t3, t8, cp`; c⁺ fitted directly, V15 = V.
 * - CCBAR_ASYMM: EVOL plus `v15` fitted, so c and c̄ may differ (NNPDF4.1).
 * - FLAVOUR: `u, ubar, d, dbar, s, sbar, c, g` with c̄ = c, so c⁺ = 2c and V15 = V.
 */
export const FIT_BASES: Readonly<Record<FitBasisName, FitBasisDefinition>> = {
  EVOL: {
    name: 'EVOL',
    flavours: ['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'],
    intermediate: { ...EVOLUTION_LIKE, cplus: { sng: 0.25, t15: -0.25 }, V15: { v: 1 } },
  },
  NN31IC: {
    name: 'NN31IC',
    flavours: ['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 'cp'],
    intermediate: { ...EVOLUTION_LIKE, cplus: { cp: 1 }, V15: { v: 1 } },
  },
  CCBAR_ASYMM: {
    name: 'CCBAR_ASYMM',
    flavours: ['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15', 'v15'],
    intermediate: { ...EVOLUTION_LIKE, cplus: { sng: 0.25, t15: -0.25 }, V15: { v15: 1 } },
  },
  FLAVOUR: {
    name: 'FLAVOUR',
    flavours: ['u', 'ubar', 'd', 'dbar', 's', 'sbar', 'c', 'g'],
    intermediate: {
      Sigma: { u: 1, ubar: 1, d: 1, dbar: 1, s: 1, sbar: 1, c: 2 },
      g: { g: 1 },
      V: { u: 1, ubar: -1, d: 1, dbar: -1, s: 1, sbar: -1 },
      V3: { u: 1, ubar: -1, d: -1, dbar: 1 },
      V8: { u: 1, ubar: -1, d: 1, dbar: -1, s: -2, sbar: 2 },
      T3: { u: 1, ubar: 1, d: -1, dbar: -1 },
      T8: { u: 1, ubar: 1, d: 1, dbar: 1, s: -2, sbar: -2 },
      cplus: { c: 2 },
      V15: { u: 1, ubar: -1, d: 1, dbar: -1, s: 1, sbar: -1 },
    },
  },
};

/**
 * Each FK-basis flavour as a combination of the 9-basis (n3fit's `FkRotation`): γ = 0,
 * V24 = V35 = V, T15 = Σ − 4c⁺, T24 = T35 = Σ; the others map one to one.
 */
const FK_FROM_INTERMEDIATE: Readonly<
  Partial<Record<EvolutionFlavour, Partial<Record<IntermediateFlavour, number>>>>
> = {
  Sigma: { Sigma: 1 },
  g: { g: 1 },
  V: { V: 1 },
  V3: { V3: 1 },
  V8: { V8: 1 },
  V15: { V15: 1 },
  V24: { V: 1 },
  V35: { V: 1 },
  T3: { T3: 1 },
  T8: { T8: 1 },
  T15: { Sigma: 1, cplus: -4 },
  T24: { Sigma: 1 },
  T35: { Sigma: 1 },
};

/** The aliases upstream accepts for fit-basis names. */
const FIT_BASIS_ALIASES: Readonly<Record<string, FitBasisName>> = { evolution: 'EVOL' };

/**
 * The fit basis called `name` (upstream's names, plus the alias `evolution` for EVOL), or
 * undefined if partonfit does not know it.
 */
export function findFitBasis(name: string): FitBasisDefinition | undefined {
  const canonical = FIT_BASIS_ALIASES[name] ?? name;
  return (FIT_BASIS_NAMES as readonly string[]).includes(canonical)
    ? FIT_BASES[canonical]
    : undefined;
}

/**
 * The rotation from the fitted flavours to the 14-flavour FK evolution basis.
 *
 * @param basis - the fit basis
 * @param order - the fitted flavours in the order the network outputs them (the runcard's
 *   `fitting.basis` order); defaults to `basis.flavours`. Must name every flavour of the basis
 *   exactly once.
 * @returns (evolution flavour, fitted flavour) = (14, F): `evolution = rotation · fitted`
 */
export function fitBasisToEvolution(
  basis: FitBasisDefinition,
  order: readonly string[] = basis.flavours,
): Matrix {
  checkFlavourOrder(basis, order);
  const rotation = createMatrix(EVOLUTION_BASIS_SIZE, order.length);
  for (const [fkFlavour, fromIntermediate] of Object.entries(FK_FROM_INTERMEDIATE)) {
    const row = evolutionIndex(fkFlavour as EvolutionFlavour);
    for (const [component, weight] of Object.entries(fromIntermediate)) {
      const combination = basis.intermediate[component as IntermediateFlavour];
      order.forEach((fitted, column) => {
        rotation.data[row * order.length + column] += weight * (combination[fitted] ?? 0);
      });
    }
  }
  return rotation;
}

/**
 * Each fitted flavour (by its runcard `fl` name, in any fit basis) as what it is in a PDF: an
 * evolution-basis combination, or a combination of flavour-basis (LHA) partons.
 */
const FITTED_FLAVOUR_CONTENT: Readonly<
  Record<
    string,
    | { readonly evolution: EvolutionFlavour }
    | { readonly lha: Partial<Record<LhaFlavour, number>>; readonly label: string }
  >
> = {
  sng: { evolution: 'Sigma' },
  g: { evolution: 'g' },
  v: { evolution: 'V' },
  v3: { evolution: 'V3' },
  v8: { evolution: 'V8' },
  t3: { evolution: 'T3' },
  t8: { evolution: 'T8' },
  t15: { evolution: 'T15' },
  v15: { evolution: 'V15' },
  cp: { lha: { C: 1, CBAR: 1 }, label: 'c⁺' },
  u: { lha: { U: 1 }, label: 'u' },
  ubar: { lha: { UBAR: 1 }, label: 'ū' },
  d: { lha: { D: 1 }, label: 'd' },
  dbar: { lha: { DBAR: 1 }, label: 'd̄' },
  s: { lha: { S: 1 }, label: 's' },
  sbar: { lha: { SBAR: 1 }, label: 's̄' },
  c: { lha: { C: 1 }, label: 'c' },
};

/**
 * The label for people of a fitted flavour, by its runcard `fl` name: `Σ` for `sng`, `V3` for
 * `v3`, `c⁺` for `cp`, `ū` for `ubar`, …; an unknown name is returned as it is.
 */
export function fittedFlavourLabel(flavour: string): string {
  const content = FITTED_FLAVOUR_CONTENT[flavour] as
    (typeof FITTED_FLAVOUR_CONTENT)[string] | undefined;
  if (content === undefined) return flavour;
  return 'evolution' in content
    ? EVOLUTION_BASIS[evolutionIndex(content.evolution)].label
    : content.label;
}

/**
 * The fitted flavours of a PDF given in the flavour (LHA) basis — the reading back of
 * {@link fitBasisToEvolution}, e.g. to look at a fit's exportgrid flavour by flavour as the
 * network fitted it: `sng` = Σ, `g` = g, `v` = V, `v3` = V3, `v8` = V8, `t3` = T3, `t8` = T8,
 * `t15` = T15, `v15` = V15 (validphys's evolution basis), `cp` = c⁺ = c + c̄ (NN31IC), and the
 * FLAVOUR basis' `u, ubar, d, dbar, s, sbar, c` their own partons (its `c` is c, equal to c̄).
 *
 * @param basis - the fit basis
 * @param order - the fitted flavours in the runcard's `fitting.basis` order; defaults to
 *   `basis.flavours`. Must name every flavour of the basis exactly once.
 * @returns (fitted flavour, LHA flavour) = (F, 14): `fitted = rotation · lha`, LHA flavours in
 *   `FLAVOUR_BASIS` order
 * @throws InvalidArgumentError for an order that is not the basis' flavours
 */
export function fitBasisFromFlavour(
  basis: FitBasisDefinition,
  order: readonly string[] = basis.flavours,
): Matrix {
  checkFlavourOrder(basis, order);
  const lhaCount = FLAVOUR_BASIS.length;
  const rotation = createMatrix(order.length, lhaCount);
  order.forEach((fitted, row) => {
    const content = FITTED_FLAVOUR_CONTENT[fitted];
    if ('evolution' in content) {
      const from = evolutionIndex(content.evolution) * lhaCount;
      rotation.data.set(FLAVOUR_TO_EVOLUTION.data.subarray(from, from + lhaCount), row * lhaCount);
      return;
    }
    FLAVOUR_BASIS.forEach(({ name }, column) => {
      rotation.data[row * lhaCount + column] = content.lha[name as LhaFlavour] ?? 0;
    });
  });
  return rotation;
}

function checkFlavourOrder(basis: FitBasisDefinition, order: readonly string[]): void {
  const unknown = order.filter((flavour) => !basis.flavours.includes(flavour));
  const repeated = order.filter((flavour, i) => order.indexOf(flavour) !== i);
  const missing = basis.flavours.filter((flavour) => !order.includes(flavour));
  const problems = [
    unknown.length > 0 ? `unknown flavour(s) ${unknown.join(', ')}` : '',
    repeated.length > 0 ? `repeated flavour(s) ${repeated.join(', ')}` : '',
    missing.length > 0 ? `missing flavour(s) ${missing.join(', ')}` : '',
  ].filter((problem) => problem !== '');
  if (problems.length > 0) {
    throw new InvalidArgumentError({
      argument: `fit basis ${basis.name}`,
      problem: `fits ${basis.flavours.join(', ')}; ${problems.join('; ')}`,
    });
  }
}
