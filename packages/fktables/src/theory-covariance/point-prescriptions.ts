import type { PointPrescriptionName } from '@partonfit/core';

/** A scale combination (k_F, k_R): the factorisation and renormalisation scales over Q. */
export type ScaleCombination = readonly [factorisation: number, renormalisation: number];

/**
 * One term of the covariance between two different processes:
 * `weight · (Σ_{v ∈ shifts} Δ₁_v)(Σ_{v ∈ shifts} Δ₂_v)ᵀ`.
 */
export interface CrossProcessTerm {
  readonly weight: number;
  /** Indices into the prescription's varied combinations (its `scales` without the central). */
  readonly shifts: readonly number[];
}

/**
 * A point prescription of the missing-higher-order covariance, as validphys builds it
 * (`covmat_3pt`, …, `covmat_9pt` of `theorycovariance/construction.py`; NNPDF, Eur. Phys. J. C
 * 79 (2019) 838). With Δ_v = T(scales v) − T(1, 1) the shifts of a process's points:
 *
 * - within one process (`name1 == name2` upstream, the process being `nnpdf31_process`):
 *   S = `sameProcessWeight` · Σ_v Δ_v Δ_vᵀ;
 * - between two processes: S₁₂ = Σ_terms weight · (Σ_{v∈term} Δ₁_v)(Σ_{v∈term} Δ₂_v)ᵀ. A term of
 *   one variation correlates it across the processes; a term summing two or three is the average
 *   over those variations taken independently in each process.
 *
 * No prescription correlates the renormalisation scale across processes. The 3f, 5, 5bar and
 * 9 point correlate the factorisation scale (a term per k_F ≠ 1, over the k_R it is paired with)
 * and vary k_R independently (a term summing k_R = 2 and ½); the 3r point varies k_R
 * independently; the 3 point varies its joint scale (k, k) independently per process, so it
 * correlates neither scale; the 7 point correlates (2, 1) and (½, 1) and varies both k_R and the
 * joint (2, 2), (½, ½) independently (`covmat_3pt` serves 3 and 3r, `covmat_3fpt` 3f).
 */
export interface PointPrescription {
  readonly name: PointPrescriptionName;
  /** The combinations (k_F, k_R), central (1, 1) first, in validphys's order. */
  readonly scales: readonly ScaleCombination[];
  readonly sameProcessWeight: number;
  readonly crossProcessTerms: readonly CrossProcessTerm[];
}

const term = (weight: number, ...shifts: number[]): CrossProcessTerm => ({ weight, shifts });

/**
 * The prescriptions by name. The varied combinations (after the central) are, in order:
 * 3 point (2,2) (½,½); 3f (2,1) (½,1); 3r (1,2) (1,½); 5 point (2,1) (½,1) (1,2) (1,½);
 * 5bar (2,2) (½,½) (2,½) (½,2); 7 point the 5 point's then (2,2) (½,½); 9 point the 7 point's
 * then (2,½) (½,2) — validphys's `pointprescriptions.yaml`.
 */
const PRESCRIPTIONS: Readonly<Record<PointPrescriptionName, PointPrescription>> = {
  '3 point': {
    name: '3 point',
    scales: [
      [1, 1],
      [2, 2],
      [0.5, 0.5],
    ],
    sameProcessWeight: 1 / 2,
    crossProcessTerms: [term(1 / 4, 0, 1)],
  },
  '3f point': {
    name: '3f point',
    scales: [
      [1, 1],
      [2, 1],
      [0.5, 1],
    ],
    sameProcessWeight: 1 / 2,
    crossProcessTerms: [term(1 / 2, 0), term(1 / 2, 1)],
  },
  '3r point': {
    name: '3r point',
    scales: [
      [1, 1],
      [1, 2],
      [1, 0.5],
    ],
    sameProcessWeight: 1 / 2,
    crossProcessTerms: [term(1 / 4, 0, 1)],
  },
  '5 point': {
    name: '5 point',
    scales: [
      [1, 1],
      [2, 1],
      [0.5, 1],
      [1, 2],
      [1, 0.5],
    ],
    sameProcessWeight: 1 / 2,
    crossProcessTerms: [term(1 / 2, 0), term(1 / 2, 1), term(1 / 4, 2, 3)],
  },
  '5bar point': {
    name: '5bar point',
    scales: [
      [1, 1],
      [2, 2],
      [0.5, 0.5],
      [2, 0.5],
      [0.5, 2],
    ],
    sameProcessWeight: 1 / 2,
    crossProcessTerms: [term(1 / 4, 0, 2), term(1 / 4, 1, 3)],
  },
  '7 point': {
    name: '7 point',
    scales: [
      [1, 1],
      [2, 1],
      [0.5, 1],
      [1, 2],
      [1, 0.5],
      [2, 2],
      [0.5, 0.5],
    ],
    sameProcessWeight: 1 / 3,
    crossProcessTerms: [term(1 / 3, 0), term(1 / 3, 1), term(1 / 6, 2, 3), term(1 / 6, 4, 5)],
  },
  '9 point': {
    name: '9 point',
    scales: [
      [1, 1],
      [2, 1],
      [0.5, 1],
      [1, 2],
      [1, 0.5],
      [2, 2],
      [0.5, 0.5],
      [2, 0.5],
      [0.5, 2],
    ],
    sameProcessWeight: 1 / 4,
    crossProcessTerms: [term(1 / 12, 0, 4, 6), term(1 / 12, 1, 5, 7), term(1 / 8, 2, 3)],
  },
};

/** The point prescription of a name (see {@link PointPrescription}). */
export function pointPrescription(name: PointPrescriptionName): PointPrescription {
  return PRESCRIPTIONS[name];
}

/** A scale combination as validphys writes it, `(k_F, k_R)`, e.g. `(0.5, 1)`. */
export function scaleLabel([factorisation, renormalisation]: ScaleCombination): string {
  return `(${factorisation}, ${renormalisation})`;
}

/**
 * The scale combinations some prescriptions need together, central first, each once, in the
 * order of first appearance: the order a runcard's `theoryids` lists their theories in (with one
 * prescription, validphys's order; `['9 point', '3 point']` needs the 9 point's nine).
 */
export function scaleCombinationsOf(
  prescriptions: readonly PointPrescriptionName[],
): ScaleCombination[] {
  const combinations = new Map<string, ScaleCombination>();
  for (const name of prescriptions) {
    for (const scales of PRESCRIPTIONS[name].scales) combinations.set(scaleLabel(scales), scales);
  }
  return [...combinations.values()];
}
