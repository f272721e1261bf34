import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatExportGrid } from '../folder/exportgrid.js';
import { fitFolderPaths } from '../folder/fit-folder-paths.js';

/** The x grid of the synthetic exportgrids, (x). */
export const SYNTHETIC_X = Float64Array.from([1e-5, 0.01, 0.5]);

/** One replica of a synthetic fit folder. */
export interface SyntheticReplica {
  readonly replica: number;
  readonly chi2?: number;
  readonly positive?: boolean;
  readonly arcLengths?: readonly number[];
  readonly integrability?: readonly number[];
  /** The epoch at which the replica diverged (its JSON's `diverged_epoch`). */
  readonly divergedEpoch?: number;
  /** Its JSON's `runcard_sha256`. */
  readonly runcardSha256?: string;
  /** Which files to leave out. */
  readonly without?: readonly ('exportgrid' | 'json')[];
}

/** The synthetic pdfgrid of replica r: value (r + 1)·(1 + ix + f/100), `(x, 14)`. */
export function syntheticPdfGrid(replica: number): Float64Array {
  return Float64Array.from(
    { length: SYNTHETIC_X.length * 14 },
    (_, i) => (replica + 1) * (1 + Math.floor(i / 14) + (i % 14) / 100),
  );
}

/**
 * A fit folder `<tmp>/synthetic/` with `nnfit/replica_<r>/` holding the JSON summary postfit
 * reads, a small exportgrid ({@link syntheticPdfGrid}), a placeholder `weights.h5` and a
 * `chi2exps.log`.
 *
 * @returns the fit folder
 */
export async function syntheticFit(replicas: readonly SyntheticReplica[]): Promise<string> {
  const output = await mkdtemp(join(tmpdir(), 'partonfit-postfit-'));
  for (const entry of replicas) {
    const paths = fitFolderPaths(output, 'synthetic', entry.replica);
    await mkdir(paths.replicaFolder, { recursive: true });
    if (!(entry.without ?? []).includes('json')) {
      await writeFile(
        paths.json,
        `${JSON.stringify(
          {
            stop_epoch: 100,
            chi2: entry.chi2 ?? 1,
            pos_state: entry.positive === false ? 'POS_VETO' : 'POS_PASS',
            arc_lengths: entry.arcLengths ?? [1.3, 1.2, 3.6, 1.1, 2.5],
            integrability: entry.integrability ?? [0.01, 0.1, 0, 0.1, 0.01],
            ...(entry.divergedEpoch === undefined ? {} : { diverged_epoch: entry.divergedEpoch }),
            ...(entry.runcardSha256 === undefined ? {} : { runcard_sha256: entry.runcardSha256 }),
          },
          null,
          2,
        )}\n`,
      );
    }
    if (!(entry.without ?? []).includes('exportgrid')) {
      await writeFile(
        paths.exportGrid,
        formatExportGrid({
          replica: entry.replica,
          q20: 2.7225,
          xGrid: SYNTHETIC_X,
          pdfGrid: syntheticPdfGrid(entry.replica),
        }),
      );
    }
    await writeFile(paths.weights, `weights of replica ${entry.replica}`);
    await writeFile(paths.chi2ExpsLog, `{"100": {"replica": ${entry.replica}}}`);
  }
  return join(output, 'synthetic');
}
