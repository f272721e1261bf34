import { join } from 'node:path';

/**
 * Where a hyperparameter scan (`partonfit hyperopt`) keeps what it writes, in its folder
 * `<output>/<runcard name>/`: one layout for the scan that writes it and the tools that read it
 * without TensorFlow.js (`partonfit status`, `partonfit report`).
 */
export interface ScanFolderPaths {
  /** The scan folder. */
  readonly folder: string;
  /** `<folder>/runcard.yml`: the scan's runcard. */
  readonly runcard: string;
  /** `<folder>/hyperopt/`. */
  readonly hyperopt: string;
  /** `<folder>/hyperopt/tries.json`: every finished trial, in trial order. */
  readonly tries: string;
  /** `<folder>/hyperopt/scan.json`: the scan's settings, which a resumed scan must share. */
  readonly settings: string;
  /** `<folder>/hyperopt/batches/`: each batch's trials and the claims of batches in training. */
  readonly batches: string;
}

/** The files of the scan in `scanFolder`. */
export function scanFolderPaths(scanFolder: string): ScanFolderPaths {
  const hyperopt = join(scanFolder, 'hyperopt');
  return {
    folder: scanFolder,
    runcard: join(scanFolder, 'runcard.yml'),
    hyperopt,
    tries: join(hyperopt, 'tries.json'),
    settings: join(hyperopt, 'scan.json'),
    batches: join(hyperopt, 'batches'),
  };
}

/**
 * The name of batch b's file in `batches/`: `batch_<b>.json` (its finished trials) or
 * `batch_<b>.claim` (the process training it), b zero-padded to 4 digits.
 */
export function batchFileName(batch: number, kind: 'trials' | 'claim'): string {
  return `batch_${String(batch).padStart(4, '0')}.${kind === 'trials' ? 'json' : 'claim'}`;
}

/** A batch file's name: group 1 the batch, group 2 `json` (trials) or `claim`. */
export const BATCH_FILE_NAME = /^batch_(\d+)\.(json|claim)$/;
