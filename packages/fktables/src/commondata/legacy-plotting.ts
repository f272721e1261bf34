import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { YamlSource } from './yaml-source.js';

/**
 * The plotting files of a legacy commondata set, where validphys's legacy loader found a set's
 * `nnpdf31_process` (the process that theory covariances group datasets by): beside
 * `DATA_<SET>.dat`, `PLOTTINGTYPE_<KIND>.yml` and `.yaml` (KIND the kinematics key of the
 * process type, e.g. `DIS` for `DIS_NCE`), then `PLOTTING_<SET>.yml` and `.yaml`, each read over
 * the ones before, so a set's own file overrides its process type's.
 *
 * @packageDocumentation
 */

/** The names of the plotting files of a legacy set, in the order validphys reads them. */
export function legacyPlottingFileNames(setName: string, kind: string | undefined): string[] {
  const roots = [...(kind === undefined ? [] : [`PLOTTINGTYPE_${kind}`]), `PLOTTING_${setName}`];
  return roots.flatMap((root) => [`${root}.yml`, `${root}.yaml`]);
}

/** What the plotting files of a legacy set say of its process. */
export interface LegacyPlottingProcess {
  /** The last `nnpdf31_process` of the files, or undefined when none has one. */
  readonly nnpdf31Process: string | undefined;
  /** The plotting files that exist, in the order read. */
  readonly files: readonly string[];
}

/**
 * The `nnpdf31_process` of a legacy set from its plotting files in `folder` (see
 * {@link legacyPlottingFileNames}); files that do not exist are skipped.
 *
 * @throws InputFileError - naming the file, for a plotting file that cannot be read, is not
 *   YAML or whose `nnpdf31_process` is not a string
 */
export async function readLegacyPlottingProcess(
  folder: string,
  setName: string,
  kind: string | undefined,
): Promise<LegacyPlottingProcess> {
  const files = legacyPlottingFileNames(setName, kind)
    .map((name) => join(folder, name))
    .filter((file) => existsSync(file));
  let nnpdf31Process: string | undefined;
  for (const file of files) {
    const source = await YamlSource.read(file, 'plotting file');
    const { root } = source;
    if (root === undefined) continue;
    const node = source.get(source.map(root, ''), 'nnpdf31_process');
    if (!source.isNull(node)) nnpdf31Process = source.text(node, 'nnpdf31_process');
  }
  return { nnpdf31Process, files };
}
