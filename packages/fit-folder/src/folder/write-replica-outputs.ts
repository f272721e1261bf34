import { mkdir } from 'node:fs/promises';
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
  /** The replica's PDF at Q0 (see {@link exportGridText}); the replica number comes from above. */
  readonly exportGrid: Omit<ExportGridOptions, 'replica'>;
  /** The replica's summary (see {@link replicaJson}). */
  readonly summary: ReplicaSummary;
}

/**
 * Writes one replica's `<fit>.exportgrid` and `<fit>.json` into
 * `<output>/<fit>/nnfit/replica_<r>/` (created if needed), each atomically (write then rename),
 * so a killed fit leaves either a replica's complete file or none. Both texts are built before
 * anything is written: bad input writes nothing.
 *
 * @returns the replica's paths ({@link fitFolderPaths})
 * @throws InvalidArgumentError or ShapeError for bad input (see {@link exportGridText},
 *   {@link replicaJson}, {@link fitFolderPaths})
 */
export async function writeReplicaOutputs(outputs: ReplicaOutputs): Promise<FitFolderPaths> {
  const { outputFolder, fitName, replica } = outputs;
  const paths = fitFolderPaths(outputFolder, fitName, replica);
  const exportGrid = exportGridText({ ...outputs.exportGrid, replica });
  const json = replicaJson(outputs.summary);
  await mkdir(paths.replicaFolder, { recursive: true });
  await writeFileAtomic(paths.exportGrid, exportGrid);
  await writeFileAtomic(paths.json, json);
  return paths;
}
