import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { BATCH_FILE_NAME, scanFolderPaths } from '@partonfit/fit-folder';
import { pathExists } from '@partonfit/io';
import { slurmFolder } from '../slurm/sbatch-scripts.js';

/**
 * The files of a scan folder `<output>/<runcard name>/` as `partonfit hyperopt` writes them
 * (fit-folder's `scanFolderPaths`), and its SLURM submissions.
 */
export interface ScanFiles {
  /** `<scan>/runcard.yml`: the scan's runcard. */
  readonly runcard: string;
  /** `<scan>/hyperopt/scan.json`: the scan's settings (`trials`, `trials_per_model`, …). */
  readonly settings: string;
  /** `<scan>/hyperopt/batches/`: `batch_NNNN.json` (finished) and `batch_NNNN.claim` (training). */
  readonly batches: string;
  /** `<scan>/slurm/scan-tasks.json`: every `partonfit submit --hyperopt` of the scan. */
  readonly submissions: string;
}

/** The files of the scan in `scanFolder`. */
export function scanFiles(scanFolder: string): ScanFiles {
  const { runcard, settings, batches } = scanFolderPaths(scanFolder);
  return {
    runcard,
    settings,
    batches,
    submissions: join(slurmFolder(scanFolder), 'scan-tasks.json'),
  };
}

/**
 * Whether `folder` holds a hyperparameter scan: its `hyperopt/scan.json` (written by the first
 * `partonfit hyperopt` process) or a `partonfit submit --hyperopt` of it (`slurm/scan-tasks.json`).
 */
export async function isScanFolder(folder: string): Promise<boolean> {
  const files = scanFiles(folder);
  return (await pathExists(files.settings)) || (await pathExists(files.submissions));
}

/** The settings of a scan that its processes share, from `hyperopt/scan.json`. */
export interface ScanSettings {
  /** SHA-256 of the runcard's fit settings (`runcardDigest`). */
  readonly runcardSha256: string;
  /** The trials of the scan (the latest process's `--trials`). */
  readonly trials: number;
  readonly trialsPerModel: number;
  readonly replicas: number;
  readonly sampler: string;
  /** Whether the scan trains one fold of one trial per model (`--one-fold-per-model`). */
  readonly oneFoldPerModel: boolean;
}

/**
 * A scan's `hyperopt/scan.json`, or undefined when the folder has none.
 *
 * @throws InputFileError naming the file (and key) when it is not such a record
 */
export async function readScanSettings(scanFolder: string): Promise<ScanSettings | undefined> {
  const file = scanFiles(scanFolder).settings;
  const record = await readJsonFile(file);
  if (record === undefined) return undefined;
  const entries = record as Record<string, unknown> | null;
  const field = (key: string, check: (value: unknown) => boolean, expected: string): unknown => {
    const value = entries?.[key];
    if (!check(value)) {
      throw new InputFileError({
        file,
        key,
        problem: `expected ${expected}, got ${String(value)}`,
      });
    }
    return value;
  };
  const count = (value: unknown) => Number.isInteger(value) && (value as number) > 0;
  const text = (value: unknown) => typeof value === 'string';
  return {
    runcardSha256: field('runcardSha256', text, 'a SHA-256') as string,
    trials: field('trials', count, 'a positive integer') as number,
    trialsPerModel: field('trials_per_model', count, 'a positive integer') as number,
    replicas: field('replicas', count, 'a positive integer') as number,
    sampler: field('sampler', text, 'a sampler name') as string,
    oneFoldPerModel: entries?.one_fold_per_model === true,
  };
}

/**
 * The JSON document of `file`, or undefined when there is no such file.
 *
 * @throws InputFileError naming the file when it cannot be read or is not JSON
 */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputFileError({ file, problem: `cannot read it (${String(error)})`, cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new InputFileError({ file, problem: `not JSON (${String(cause)})`, cause });
  }
}

/** A scan's batch files: the finished batches and the claimed ones, by batch number. */
export interface BatchFiles {
  /** `batch_NNNN.json`, by batch. */
  readonly finished: ReadonlyMap<number, string>;
  /** `batch_NNNN.claim` of batches without trials yet, by batch. */
  readonly claimed: ReadonlyMap<number, string>;
}

/** The batch files in `<scan>/hyperopt/batches/` (none when it does not exist). */
export async function batchFiles(scanFolder: string): Promise<BatchFiles> {
  const folder = scanFiles(scanFolder).batches;
  const names = await readdir(folder).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  const finished = new Map<number, string>();
  const claims = new Map<number, string>();
  for (const name of names) {
    const match = BATCH_FILE_NAME.exec(name);
    if (match === null) continue;
    (match[2] === 'json' ? finished : claims).set(Number(match[1]), join(folder, name));
  }
  const claimed = new Map([...claims].filter(([batch]) => !finished.has(batch)));
  return { finished, claimed };
}
