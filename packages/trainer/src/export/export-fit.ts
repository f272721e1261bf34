import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { writeFileAtomic } from '@partonfit/io';
import {
  exportGridText,
  fitFolderPaths,
  listReplicaFolders,
  preprocessingJson,
} from '@partonfit/fit-folder';
import { loadFitRuncard } from './fit-runcard.js';
import { modelFolderHandler } from './model-folder-handler.js';
import { buildReplicaModel } from './replica-model.js';
import { replicaPdfRecords, type ReplicaPdfRecords } from './replica-records.js';
import { readReplicaWeights } from './replica-weights-file.js';

/** The folder, inside a replica's folder, that `exportFit` saves its tfjs model into. */
export const TFJS_MODEL_FOLDER = 'tfjs';

/** Options of {@link exportFit}. */
export interface ExportFitOptions {
  /**
   * Also save each replica as a tfjs layers model, `replica_<r>/tfjs/model.json` and
   * `weights.bin` ({@link modelFolderHandler}).
   */
  readonly tfjs?: boolean;
  /** Called with one line per exported replica. */
  readonly report?: (line: string) => void;
}

/** The files {@link exportFit} wrote for one replica. */
export interface ExportedReplica {
  /** The replica number, from 1. */
  readonly replica: number;
  readonly exportGrid: string;
  readonly json: string;
  /** The tfjs model's folder, with `tfjs`. */
  readonly tfjsModel?: string;
}

/** The replica's `<fit>.json` with its PDF-derived entries replaced by `records`'. */
async function updatedJson(file: string, records: ReplicaPdfRecords): Promise<string> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new InputFileError({
      file,
      problem: `cannot read the replica's JSON summary, whose training entries export keeps (${cause instanceof Error ? cause.message : String(cause)})`,
      cause,
    });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new InputFileError({ file, problem: 'expected a JSON object' });
  }
  return `${JSON.stringify(
    {
      ...document,
      preprocessing: preprocessingJson(records.preprocessing),
      arc_lengths: Array.from(records.arcLengths),
      integrability: Array.from(records.integrability),
    },
    null,
    2,
  )}\n`;
}

/**
 * `partonfit export`: rebuilds every replica of a fit from its `nnfit/replica_<r>/weights.h5` and
 * the fit's `runcard.yml`, and rewrites its `<fit>.exportgrid` and the PDF-derived entries of its
 * `<fit>.json` (`preprocessing`, `arc_lengths`, `integrability`; the training entries are kept).
 * The files come out identical to the fit's own when run on the backend that ran the fit: both
 * are computed by {@link replicaPdfRecords} from the same weights. Each replica's files are
 * computed before any is written, and written atomically.
 *
 * @param fitFolder - the fit folder `<output>/<fit>` (its name is the fit's name)
 * @returns one entry per replica, in replica order
 * @throws RuncardError for a missing or invalid `runcard.yml`; InputFileError naming the file
 *   (and key) for a fit without replica folders, a missing or corrupt `weights.h5` or one of
 *   another runcard, or a missing replica JSON
 */
export async function exportFit(
  fitFolder: string,
  options: ExportFitOptions = {},
): Promise<ExportedReplica[]> {
  const folder = resolve(fitFolder);
  const fitName = basename(folder);
  const fit = await loadFitRuncard(folder);
  const nnfit = join(folder, 'nnfit');
  const replicas = await listReplicaFolders(nnfit);
  if (replicas.length === 0) {
    throw new InputFileError({ file: nnfit, problem: 'no replica_<n> folders to export' });
  }
  const exported: ExportedReplica[] = [];
  for (const replica of replicas) {
    const paths = fitFolderPaths(dirname(folder), fitName, replica);
    const { parameters, metadata } = await readReplicaWeights(paths.weights, fit);
    if (metadata.replica !== replica) {
      throw new InputFileError({
        file: paths.weights,
        key: 'replica',
        problem: `holds replica ${metadata.replica}, not ${replica}`,
      });
    }
    const records = await replicaPdfRecords(parameters);
    const exportGrid = exportGridText({
      replica,
      q0: metadata.q0,
      xfEvolution: records.xfEvolution,
    });
    const json = await updatedJson(paths.json, records);
    await writeFileAtomic(paths.exportGrid, exportGrid);
    await writeFileAtomic(paths.json, json);
    let tfjsModel: string | undefined;
    if (options.tfjs === true) {
      tfjsModel = join(paths.replicaFolder, TFJS_MODEL_FOLDER);
      const model = buildReplicaModel(parameters, `replica_${replica}`);
      try {
        await model.save(modelFolderHandler(tfjsModel));
      } finally {
        model.dispose();
      }
    }
    options.report?.(
      `replica ${replica}: ${paths.exportGrid}, ${paths.json}${tfjsModel === undefined ? '' : `, ${tfjsModel}/`}`,
    );
    exported.push({
      replica,
      exportGrid: paths.exportGrid,
      json: paths.json,
      ...(tfjsModel === undefined ? {} : { tfjsModel }),
    });
  }
  return exported;
}
