import { mkdir, rm } from 'node:fs/promises';
import { writeFileAtomic } from '@partonfit/io';
import { exportGridText, type ExportGridOptions } from './exportgrid.js';
import { fitFolderPaths, type FitFolderPaths } from './fit-folder-paths.js';
import { replicaJson, type ReplicaSummary } from './replica-json.js';

/** What {@link writeReplicaOutputs} writes for one replica. */
export interface ReplicaOutputs {
  /** The folder that holds fit folders. */
  readonly outputFolder: string;
  /** The fit's name (one path segment). */
  readonly fitName: string;
  /** The replica number, from 1. */
  readonly replica: number;
  /**
   * The replica's PDF at Q0 (see {@link exportGridText}); the replica number comes from above.
   * Undefined for a replica that has no PDF (it diverged before its first best epoch).
   */
  readonly exportGrid: Omit<ExportGridOptions, 'replica'> | undefined;
  /** The replica's summary (see {@link replicaJson}). */
  readonly summary: ReplicaSummary;
}

/**
 * Writes one replica's `<fit>.exportgrid` and `<fit>.json` into
 * `<output>/<fit>/nnfit/replica_<r>/` (created if needed), each atomically (write then rename),
 * so a killed fit leaves either a replica's complete file or none. Both texts are built before
 * anything is written: bad input writes nothing. A replica without a PDF gets its JSON alone,
 * and an exportgrid or `weights.h5` an earlier run left in its folder is removed, so the folder
 * never pairs this fit's JSON with another run's PDF.
 *
 * @returns the replica's paths ({@link fitFolderPaths})
 * @throws InvalidArgumentError or ShapeError for bad input (see {@link exportGridText},
 *   {@link replicaJson}, {@link fitFolderPaths})
 */
export async function writeReplicaOutputs(outputs: ReplicaOutputs): Promise<FitFolderPaths> {
  const { outputFolder, fitName, replica } = outputs;
  const paths = fitFolderPaths(outputFolder, fitName, replica);
  const exportGrid =
    outputs.exportGrid === undefined
      ? undefined
      : exportGridText({ ...outputs.exportGrid, replica });
  const json = replicaJson(outputs.summary);
  await mkdir(paths.replicaFolder, { recursive: true });
  if (exportGrid === undefined) {
    await rm(paths.exportGrid, { force: true });
    await rm(paths.weights, { force: true });
  } else {
    await writeFileAtomic(paths.exportGrid, exportGrid);
  }
  await writeFileAtomic(paths.json, json);
  return paths;
}
