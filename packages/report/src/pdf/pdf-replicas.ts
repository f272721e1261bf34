import { join } from 'node:path';
import {
  EVOLUTION_TO_FLAVOUR,
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
  InputFileError,
  rotateFlavours,
} from '@partonfit/core';
import { listReplicaFolders, readExportGrid } from '@partonfit/fit-folder';
import {
  lhapdfMemberFile,
  loadLhapdfMember,
  loadLhapdfSet,
  pathExists,
  xfAtScale,
} from '@partonfit/io';

const FLAVOURS = FLAVOUR_BASIS.length;

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
 * The replicas of a fit folder from their exportgrids: postfit's selection
 * (`postfit/replica_1 … n`) when `postfit/` exists, else every `nnfit/replica_<r>` with an
 * exportgrid (a replica folder without one — a diverged replica without a best epoch — is
 * skipped and named in the notes).
 *
 * @throws InputFileError naming the folder when no replica has an exportgrid, or an exportgrid
 *   on another x grid than the first
 */
export async function fitPdfReplicas(fitFolder: string, fit: string): Promise<PdfReplicas> {
  const postfit = join(fitFolder, 'postfit');
  const hasPostfit = await pathExists(postfit);
  const parent = hasPostfit ? postfit : join(fitFolder, 'nnfit');
  const numbers = (await listReplicaFolders(parent)).filter((replica) => replica > 0);
  const grids = [];
  const missing: number[] = [];
  for (const replica of numbers) {
    const file = join(parent, `replica_${replica}`, `${fit}.exportgrid`);
    if (await pathExists(file)) grids.push({ file, grid: await readExportGrid(file) });
    else missing.push(replica);
  }
  if (grids.length === 0) {
    throw new InputFileError({ file: parent, problem: `no replica_<n>/${fit}.exportgrid` });
  }
  const [first] = grids;
  const size = first.grid.xGrid.length * FLAVOURS;
  const replicas = new Float64Array(grids.length * size);
  grids.forEach(({ file, grid }, r) => {
    const sameGrid =
      grid.xGrid.length === first.grid.xGrid.length &&
      grid.xGrid.every((x, i) => x === first.grid.xGrid[i]);
    if (!sameGrid) {
      throw new InputFileError({
        file,
        key: 'xgrid',
        problem: `another x grid than ${first.file}`,
      });
    }
    replicas.set(grid.pdfGrid, r * size);
  });
  const notes = [
    `${grids.length} replica${grids.length === 1 ? '' : 's'} from ${hasPostfit ? 'postfit/' : 'nnfit/ (no postfit: every fitted replica)'}`,
  ];
  if (missing.length > 0) {
    notes.push(
      `replica${missing.length === 1 ? '' : 's'} ${missing.join(', ')} without an exportgrid`,
    );
  }
  return {
    label: fit,
    kind: 'fit',
    q: Math.sqrt(first.grid.q20),
    xGrid: first.grid.xGrid,
    central: replicaMean(replicas, grids.length),
    replicas,
    replicaCount: grids.length,
    notes,
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
