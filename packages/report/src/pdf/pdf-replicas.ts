import { EVOLUTION_TO_FLAVOUR, FLAVOUR_TO_EVOLUTION, rotateFlavours } from '@partonfit/core';
import { readFitReplicasAtQ0 } from '@partonfit/fit-folder';
import {
  lhapdfMemberFile,
  loadLhapdfMember,
  loadLhapdfSet,
  pathExists,
  xfAtScale,
} from '@partonfit/io';

/** What a set of PDF members is: a fit's replicas, an LHAPDF set, or a closure test's truth. */
export type PdfSetKind = 'fit' | 'lhapdf' | 'truth';

/** x·f at one scale of a set of PDF members on one x grid. */
export interface PdfReplicas {
  /** The name figures and tables give the set. */
  readonly label: string;
  readonly kind: PdfSetKind;
  /** The scale in GeV. */
  readonly q: number;
  /** The x points, `(x)`. */
  readonly xGrid: Float64Array;
  /**
   * The central member, `(x, flavour)` in the flavour basis (`FLAVOUR_BASIS` order): LHAPDF's
   * member 0, or the mean of a fit's replicas.
   */
  readonly central: Float64Array;
  /** The replicas, `(replicas, x, flavour)` in the flavour basis; none for a single PDF. */
  readonly replicas: Float64Array;
  readonly replicaCount: number;
  /** What the figures should say about the set (members missing, extrapolation, …). */
  readonly notes: readonly string[];
}

/** The mean over replicas of `(replicas, points)`, `(points)`. */
export function replicaMean(values: Float64Array, replicas: number): Float64Array {
  const points = values.length / replicas;
  const mean = new Float64Array(points);
  for (let r = 0; r < replicas; r++) {
    for (let i = 0; i < points; i++) mean[i] += values[r * points + i] / replicas;
  }
  return mean;
}

/** `(members, x, flavour)` rotated from the flavour to the evolution basis or back. */
export function rotateMembers(values: Float64Array, to: 'evolution' | 'flavour'): Float64Array {
  return rotateFlavours(to === 'evolution' ? FLAVOUR_TO_EVOLUTION : EVOLUTION_TO_FLAVOUR, values);
}

/**
 * The replicas of a fit folder at its Q0, read by `readFitReplicasAtQ0` (postfit's selection when
 * `postfit/` exists, else every `nnfit/replica_<r>` with an exportgrid), the central value their
 * mean; the notes say where the replicas come from and which were skipped.
 *
 * @throws InputFileError naming the folder or exportgrid that does not read (`readFitReplicasAtQ0`)
 */
export async function fitPdfReplicas(fitFolder: string): Promise<PdfReplicas> {
  const fit = await readFitReplicasAtQ0(fitFolder);
  const from = fit.source === 'postfit' ? 'postfit/' : 'nnfit/ (no postfit: every fitted replica)';
  return {
    label: fit.fit,
    kind: 'fit',
    q: fit.q0,
    xGrid: fit.xGrid,
    central: replicaMean(fit.xf, fit.replicas),
    replicas: fit.xf,
    replicaCount: fit.replicas,
    notes: [`${fit.replicas} replica${fit.replicas === 1 ? '' : 's'} from ${from}`, ...fit.notes],
  };
}

/**
 * An LHAPDF set at scale `q` on `xGrid`: member 0 as the central value and every replica
 * member whose file is present (a set shipped with only some members gives a band of those).
 * Points outside the set's x or Q range are extrapolated as LHAPDF does, and said in the notes.
 *
 * @throws InputFileError for a folder that is not an LHAPDF set or a damaged member
 */
export async function lhapdfPdfReplicas(
  folder: string,
  xGrid: Float64Array,
  q: number,
): Promise<PdfReplicas> {
  const set = await loadLhapdfSet(folder);
  const central = xfAtScale(await loadLhapdfMember(set, 0), xGrid, q);
  const present: number[] = [];
  for (let member = 1; member < set.numMembers; member++) {
    if (await pathExists(lhapdfMemberFile(set, member))) present.push(member);
  }
  const replicas = new Float64Array(present.length * central.length);
  for (const [r, member] of present.entries()) {
    replicas.set(xfAtScale(await loadLhapdfMember(set, member), xGrid, q), r * central.length);
  }
  const notes = [`member 0 and ${present.length} of ${set.numMembers - 1} replica members`];
  if (present.length < 2) notes.push('fewer than 2 replicas: no uncertainty band');
  const xLow = xGrid[0];
  if (set.xMin !== undefined && xLow < set.xMin) {
    notes.push(`x below the set's XMin = ${set.xMin} is extrapolated`);
  }
  if (set.qMin !== undefined && q < set.qMin) {
    notes.push(
      `Q = ${q.toPrecision(4)} GeV is below the set's QMin = ${set.qMin} GeV: extrapolated`,
    );
  }
  return {
    label: set.name,
    kind: 'lhapdf',
    q,
    xGrid,
    central,
    replicas,
    replicaCount: present.length,
    notes,
  };
}

/**
 * A single PDF given in the evolution basis — a closure test's truth — on `xGrid` at `q`.
 *
 * @param evolutionXf - x·f `(x, 14)` in the evolution basis for an x grid
 */
export function singlePdf(
  label: string,
  evolutionXf: (xGrid: Float64Array) => Float64Array,
  xGrid: Float64Array,
  q: number,
): PdfReplicas {
  return {
    label,
    kind: 'truth',
    q,
    xGrid,
    central: rotateMembers(evolutionXf(xGrid), 'flavour'),
    replicas: new Float64Array(),
    replicaCount: 0,
    notes: [],
  };
}
