import { InvalidArgumentError } from '@partonfit/core';
import { betaCoefficients, betaFunction } from './beta-function.js';
import type { PerturbativeOrder, TheoryCard } from './theory-card.js';
import {
  activeFlavours,
  flavoursAllowedAt,
  LIGHT_FLAVOURS,
  thresholdsOfTheory,
} from './thresholds.js';

/** What determines αs(Q): the settings of a theory card that enter it. */
export interface StrongCouplingSettings {
  /** 0 LO, 1 NLO, 2 NNLO: the β function and the threshold matching at that order. */
  readonly order: PerturbativeOrder;
  /** αs(qRef). */
  readonly alphaSRef: number;
  /** The reference scale (GeV). */
  readonly qRef: number;
  /** The squared threshold scales (GeV²), charm first, as `thresholdScales2` gives them. */
  readonly thresholds2: readonly number[];
  /**
   * The number of active flavours αs(qRef) is given in; by default the number active at qRef
   * (the higher one on a threshold), on a threshold the lower one is allowed.
   */
  readonly referenceFlavours?: number;
  /**
   * A fixed-flavour-number scheme: this many active flavours at every scale (`thresholds2` then
   * empty). By default 3 flavours below the first threshold.
   */
  readonly fixedFlavours?: number;
  /** ln(μ_h²/m_h²) at each threshold (0 when the threshold is at the pole mass). */
  readonly thresholdLogs: readonly number[];
  /**
   * How the β-function equation is solved: `exact` numerically (APFEL's and eko's "exact", used
   * with `ModEv: EXA`), `expanded` by the perturbative expansion in ln(μ²/μ0²) from each
   * region's starting point (APFEL's "expanded", used with `ModEv: TRN` as in NNPDF4.0).
   */
  readonly method: CouplingMethod;
}

/** How the β-function equation is solved; see {@link StrongCouplingSettings.method}. */
export type CouplingMethod = 'exact' | 'expanded';

/** αs(Q) of one theory, with heavy-quark thresholds. */
export interface StrongCoupling {
  /** The settings it was built from. */
  readonly settings: StrongCouplingSettings;
  /**
   * αs at Q (GeV).
   *
   * @param q - the scale (GeV)
   * @param nf - the number of active flavours; by default the one of Q's region (at a
   *   threshold the higher one, after the matching); at a threshold the lower one is allowed too
   *   (the value before the matching).
   */
  alphaS(q: number, nf?: number): number;
  /** The number of active flavours at Q (GeV); at a threshold the higher one. */
  activeFlavours(q: number): number;
}

/** Largest step in ln μ² of the Runge–Kutta solution of the β-function equation. */
const MAX_STEP = 0.02;

/**
 * Solves da/d ln μ² = β(a) from ln μ² = t0 to t1 with fourth-order Runge–Kutta steps no longer
 * than {@link MAX_STEP} (the "exact" solution of the truncated β function).
 */
function evolveCoupling(a0: number, t0: number, t1: number, beta: readonly number[]): number {
  const steps = Math.max(1, Math.ceil(Math.abs(t1 - t0) / MAX_STEP));
  const h = (t1 - t0) / steps;
  let a = a0;
  for (let step = 0; step < steps; step++) {
    const k1 = betaFunction(a, beta);
    const k2 = betaFunction(a + (h / 2) * k1, beta);
    const k3 = betaFunction(a + (h / 2) * k2, beta);
    const k4 = betaFunction(a + h * k3, beta);
    a += (h / 6) * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return a;
}

/**
 * The expanded solution of the β-function equation from a0 at ln μ² = t0 to t1, with
 * L = t1 − t0 and b_k = β_k/β0: a_LO = a0/(1 + β0·a0·L); at NLO
 * a_NLO = a_LO·(1 − b1·a_LO·ln(1 + β0·a0·L)); at NNLO
 * a_LO·(1 + a_LO·(a_LO − a0)·(b2 − b1²) + a_NLO·b1·ln(a_NLO/a0)) (APFEL's expressions).
 */
function expandCoupling(a0: number, t0: number, t1: number, beta: readonly number[]): number {
  const denominator = 1 + beta[0] * a0 * (t1 - t0);
  const aLO = a0 / denominator;
  if (beta.length === 1) return aLO;
  const b1 = beta[1] / beta[0];
  const aNLO = aLO * (1 - b1 * aLO * Math.log(denominator));
  if (beta.length === 2) return aNLO;
  const b2 = beta[2] / beta[0];
  return aLO * (1 + aLO * (aLO - a0) * (b2 - b1 * b1) + aNLO * b1 * Math.log(aNLO / a0));
}

/**
 * The decoupling coefficients of a = αs/(4π) with pole masses, going up one flavour at a
 * threshold μ_h with L = ln(μ_h²/m_h²):
 * a^(nf+1) = a^(nf)·(1 + c1·a^(nf) + c2·(a^(nf))²), c1 = 2L/3, c2 = 14/3 + 38L/3 + 4L²/9
 * (c2 only at NNLO).
 */
function matchingUp(order: PerturbativeOrder, logRatio: number): [number, number] {
  const c1 = order >= 1 ? (2 / 3) * logRatio : 0;
  const c2 = order >= 2 ? 14 / 3 + (38 / 3) * logRatio + (4 / 9) * logRatio ** 2 : 0;
  return [c1, c2];
}

/** a^(nf+1) from a^(nf) at a threshold. */
function matchUp(a: number, order: PerturbativeOrder, logRatio: number): number {
  const [c1, c2] = matchingUp(order, logRatio);
  return a * (1 + c1 * a + c2 * a * a);
}

/**
 * a^(nf) from a^(nf+1) at a threshold: the perturbative inverse of {@link matchUp} truncated
 * at the order, a·(1 − c1·a + (2c1² − c2)·a²) with the a² term at NNLO only.
 */
function matchDown(a: number, order: PerturbativeOrder, logRatio: number): number {
  const [c1, c2] = matchingUp(order, logRatio);
  const second = order >= 2 ? 2 * c1 * c1 - c2 : 0;
  return a * (1 - c1 * a + second * a * a);
}

/**
 * A number of flavours checked against a scale: by default the one active at q, else it must be
 * allowed there ({@link flavoursAllowedAt}).
 *
 * @throws InvalidArgumentError naming `argument` when the number does not apply at q
 */
function flavoursAt(
  argument: string,
  flavours: number | undefined,
  q: number,
  thresholds2: readonly number[],
  lowest: number,
): number {
  const allowed = flavoursAllowedAt(q * q, thresholds2, lowest);
  if (flavours === undefined) return allowed[0];
  if (allowed.includes(flavours)) return flavours;
  throw new InvalidArgumentError({
    argument,
    problem: `${flavours} active flavours do not apply at Q = ${q} GeV (${allowed.join(' or ')} do)`,
  });
}

/**
 * αs(Q) at LO, NLO or NNLO from a reference value, solving the renormalisation-group equation
 * of the β function truncated at the order (numerically or by its expansion, see
 * {@link StrongCouplingSettings.method}), with the number of active flavours changing at the heavy-quark thresholds and αs matched
 * there (pole masses: continuous at LO and NLO when the threshold is at the mass, the
 * two-loop decoupling constant 14/3·a² at NNLO).
 *
 * @param settings - see {@link StrongCouplingSettings}, or use {@link strongCouplingOfTheory}
 * @throws InvalidArgumentError for a non-positive αs or scale, or reference flavours that do
 *   not apply at qRef
 */
export function createStrongCoupling(settings: StrongCouplingSettings): StrongCoupling {
  const { order, qRef, thresholds2, thresholdLogs } = settings;
  if (!(settings.alphaSRef > 0 && settings.alphaSRef < 1))
    throw new InvalidArgumentError({
      argument: 'alphaSRef',
      problem: `expected 0 < αs < 1, got ${settings.alphaSRef}`,
    });
  if (!(qRef > 0))
    throw new InvalidArgumentError({ argument: 'qRef', problem: `expected > 0, got ${qRef}` });
  const lowest = settings.fixedFlavours ?? LIGHT_FLAVOURS;
  if (settings.fixedFlavours !== undefined && thresholds2.length > 0)
    throw new InvalidArgumentError({
      argument: 'thresholds2',
      problem: `expected none with ${settings.fixedFlavours} fixed flavours, got ${thresholds2.length}`,
    });
  const solve = settings.method === 'exact' ? evolveCoupling : expandCoupling;
  const nfRef = flavoursAt(
    'referenceFlavours',
    settings.referenceFlavours,
    qRef,
    thresholds2,
    lowest,
  );
  const tRef = Math.log(qRef * qRef);
  const aRef = settings.alphaSRef / (4 * Math.PI);
  const betas: number[][] = [];
  for (let nf = lowest; nf <= lowest + thresholds2.length; nf++)
    betas[nf] = betaCoefficients(nf, order);
  // a^(nf) at the boundary of region nf nearest to the reference: (ln μ², a)
  const starts: { t: number; a: number }[] = [];
  starts[nfRef] = { t: tRef, a: aRef };
  for (let nf = nfRef; nf < lowest + thresholds2.length; nf++) {
    const start = starts[nf];
    const threshold = nf - lowest;
    const t = Math.log(thresholds2[threshold]);
    const below = solve(start.a, start.t, t, betas[nf]);
    starts[nf + 1] = { t, a: matchUp(below, order, thresholdLogs[threshold]) };
  }
  for (let nf = nfRef; nf > lowest; nf--) {
    const start = starts[nf];
    const threshold = nf - lowest - 1;
    const t = Math.log(thresholds2[threshold]);
    const above = solve(start.a, start.t, t, betas[nf]);
    starts[nf - 1] = { t, a: matchDown(above, order, thresholdLogs[threshold]) };
  }
  return {
    settings,
    activeFlavours: (q: number) => activeFlavours(q * q, thresholds2, lowest),
    alphaS(q: number, nf?: number): number {
      if (!(q > 0))
        throw new InvalidArgumentError({ argument: 'q', problem: `expected > 0, got ${q}` });
      const flavours = flavoursAt('nf', nf, q, thresholds2, lowest);
      const start = starts[flavours];
      const a = solve(start.a, start.t, Math.log(q * q), betas[flavours]);
      return 4 * Math.PI * a;
    },
  };
}

/**
 * The strong coupling of a theory card: `PTO`, `alphas` at `Qref` (in `nfref` flavours when
 * given), thresholds at
 * `kcThr·mc`, `kbThr·mb`, `ktThr·mt` up to `MaxNfAs` flavours, solved as `ModEv` says (`TRN`:
 * expanded, `EXA`: exact), as NNPDF's evolution with APFEL and eko does.
 *
 * @param card - a card read by {@link readTheoryCard}
 */
export function strongCouplingOfTheory(card: TheoryCard): StrongCoupling {
  const ratios = [
    card.thresholdRatios.charm,
    card.thresholdRatios.bottom,
    card.thresholdRatios.top,
  ];
  const thresholds2 = thresholdsOfTheory(card, card.maxNfAlphaS);
  return createStrongCoupling({
    order: card.order,
    alphaSRef: card.alphaSRef,
    qRef: card.qRef,
    thresholds2,
    ...(card.alphaSRefFlavours === undefined ? {} : { referenceFlavours: card.alphaSRefFlavours }),
    ...(card.fixedFlavours === undefined ? {} : { fixedFlavours: card.fixedFlavours }),
    thresholdLogs: thresholds2.map((_, h) => 2 * Math.log(ratios[h])),
    method: card.evolutionMethod === 'TRN' ? 'expanded' : 'exact',
  });
}
