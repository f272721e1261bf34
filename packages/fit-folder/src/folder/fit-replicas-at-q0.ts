import { stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { FLAVOUR_BASIS, InputFileError } from '@partonfit/core';
import { pathExists } from '@partonfit/io';
import { POSTFIT_FILES } from '../postfit/postfit.js';
import { readExportGrid } from './exportgrid-reader.js';
import { listReplicaFolders } from './replica-folders.js';

/** The replicas of a PDF at one scale: x·f on an x grid in the flavour (LHA) basis. */
export interface ReplicasAtScale {
  /** The x grid (x), increasing: the exportgrids' grid. */
  readonly xGrid: Float64Array;
  /** x·f, (replicas, x, flavour) row-major, flavours in `FLAVOUR_BASIS` order. */
  readonly xf: Float64Array;
  /** The number of replicas. */
  readonly replicas: number;
  /** The file the x grid was read from (an exportgrid), which errors about it name. */
  readonly gridFile?: string;
}

/** Where a fit's replicas are read from: postfit's selection, or every fitted replica. */
export type FitReplicaSource = 'postfit' | 'nnfit';

/** A fit's replicas at its fitting scale Q0, read from their exportgrids. */
export interface FitReplicasAtQ0 extends ReplicasAtScale {
  /** The fit's name (its folder's name). */
  readonly fit: string;
  /** The fit folder, absolute. */
  readonly folder: string;
  /** `postfit` when postfit's selection was read, `nnfit` (every fitted replica) before postfit. */
  readonly source: FitReplicaSource;
  /** The replica folders read (`<source>/replica_<n>`), in order. */
  readonly replicaFolders: readonly number[];
  /** Q0 in GeV, from the exportgrids' `q20`. */
  readonly q0: number;
  /** The first replica's exportgrid, whose x grid and Q0 the others were checked against. */
  readonly gridFile: string;
  /** What the reader skipped, in words (nnfit replicas without an exportgrid). */
  readonly notes: readonly string[];
}

/**
 * Which replicas of a fit folder are read, the one rule of every command: postfit's selection
 * when `postfit/` exists, else nnfit's.
 *
 * @returns the source, or undefined for a folder that holds neither (not a fit folder)
 */
export async function fitReplicaSource(fitFolder: string): Promise<FitReplicaSource | undefined> {
  for (const source of [POSTFIT_FILES.folder, 'nnfit'] as const) {
    const info = await stat(join(fitFolder, source)).catch(() => undefined);
    if (info?.isDirectory() === true) return source;
  }
  return undefined;
}

/**
 * The replicas of a fit folder at Q0 from their exportgrids, by one rule for every command that
 * reads them (`partonfit evolve`, `iterate`, `report`): postfit's selection
 * (`postfit/replica_1 … n`, replica 0 the average left out) when `postfit/` exists, else every
 * `nnfit/replica_<r>` that has an exportgrid (a diverged replica without one is skipped and
 * named in the notes).
 *
 * @param fitFolder - `<output>/<fit>`
 * @throws InputFileError naming the folder that is not a fit folder (neither `nnfit/` nor
 *   `postfit/`), a `postfit/` or `nnfit/` without replicas, a postfit replica without its
 *   exportgrid, an exportgrid that does not read (file, line and key), or the exportgrid whose x
 *   grid or Q0 differs from the first's
 */
export async function readFitReplicasAtQ0(fitFolder: string): Promise<FitReplicasAtQ0> {
  const folder = resolve(fitFolder);
  const fit = basename(folder);
  const source = await fitReplicaSource(folder);
  if (source === undefined) {
    throw new InputFileError({
      file: folder,
      problem: 'not a fit folder: it holds neither nnfit/ nor postfit/ (partonfit fit writes them)',
    });
  }
  const parent = join(folder, source);
  const numbers = (await listReplicaFolders(parent)).filter((replica) => replica > 0);
  const files = numbers.map((replica) => join(parent, `replica_${replica}`, `${fit}.exportgrid`));
  const present = await Promise.all(files.map((file) => pathExists(file)));
  const missing = numbers.filter((_, i) => !present[i]);
  if (source === 'postfit' && missing.length > 0) {
    throw new InputFileError({
      file: files[numbers.indexOf(missing[0])],
      problem: 'missing: postfit/ is incomplete; run partonfit postfit again',
    });
  }
  const read = numbers.filter((_, i) => present[i]);
  if (read.length === 0) {
    throw new InputFileError({
      file: parent,
      problem:
        source === 'postfit'
          ? `no replica after postfit: no replica_<n>/${fit}.exportgrid with n ≥ 1; run partonfit postfit again`
          : `no replica_<n>/${fit}.exportgrid: no replica has finished`,
    });
  }
  const grids = [];
  for (const file of files.filter((_, i) => present[i])) {
    grids.push({ file, grid: await readExportGrid(file) });
  }
  const [first] = grids;
  const size = first.grid.xGrid.length * FLAVOUR_BASIS.length;
  const xf = new Float64Array(grids.length * size);
  grids.forEach(({ file, grid }, r) => {
    const sameX =
      grid.xGrid.length === first.grid.xGrid.length &&
      grid.xGrid.every((x, i) => x === first.grid.xGrid[i]);
    if (!sameX) {
      throw new InputFileError({ file, key: 'xgrid', problem: `differs from ${first.file}'s` });
    }
    if (grid.q20 !== first.grid.q20) {
      throw new InputFileError({
        file,
        key: 'q20',
        problem: `${grid.q20}, but ${first.file} has ${first.grid.q20}`,
      });
    }
    xf.set(grid.pdfGrid, r * size);
  });
  const notes =
    missing.length === 0
      ? []
      : [
          `replica${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of nnfit/ without an exportgrid`,
        ];
  return {
    fit,
    folder,
    source,
    replicaFolders: read,
    q0: Math.sqrt(first.grid.q20),
    xGrid: first.grid.xGrid,
    xf,
    replicas: grids.length,
    gridFile: first.file,
    notes,
  };
}
