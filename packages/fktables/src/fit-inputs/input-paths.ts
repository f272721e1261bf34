import { isAbsolute, resolve } from 'node:path';
import {
  dataFolder,
  lhapdfFolder,
  RuncardError,
  theoriesFolder,
  type Runcard,
} from '@partonfit/core';

/** Where a runcard's inputs are, as absolute paths. */
export interface InputPaths {
  /** The runcard file, for messages. */
  readonly runcardFile: string;
  /** The runcard's folder: relative paths in the runcard start here. */
  readonly runcardFolder: string;
  /**
   * The folder holding `theory_<ID>/` folders: `data_paths.theories`, else the data folder's
   * `theories/` (where `partonfit get theory` puts them).
   */
  readonly theories: string | undefined;
  /** The commondata folder (`data_paths.commondata`). */
  readonly commondata: string | undefined;
  /**
   * The folder holding LHAPDF sets: `data_paths.lhapdf`, else the data folder's `lhapdf/`
   * (where `partonfit get pdf` puts them).
   */
  readonly lhapdf: string | undefined;
  /** `theory.theoryid`. */
  readonly theoryId: number | undefined;
}

/** A path from the runcard, made absolute against the runcard's folder. */
export function runcardPath(paths: Pick<InputPaths, 'runcardFolder'>, path: string): string {
  return isAbsolute(path) ? path : resolve(paths.runcardFolder, path);
}

/** The input paths of a runcard read from `runcardFile`. */
export function inputPaths(runcard: Runcard, runcardFile: string): InputPaths {
  const runcardFolder = resolve(runcardFile, '..');
  const { theories, commondata, lhapdf, data } = runcard.data_paths;
  const absolute = (path: string | undefined) =>
    path === undefined ? undefined : runcardPath({ runcardFolder }, path);
  const downloads = dataFolder(absolute(data));
  return {
    runcardFile,
    runcardFolder,
    theories: absolute(theories) ?? theoriesFolder(downloads),
    commondata: absolute(commondata),
    lhapdf: absolute(lhapdf) ?? lhapdfFolder(downloads),
    theoryId: runcard.theory?.theoryid,
  };
}

/** A runcard error for a missing setting that `what` needs. */
export function missingSetting(paths: InputPaths, keyPath: string, what: string): RuncardError {
  return new RuncardError({
    file: paths.runcardFile,
    issues: [{ keyPath, problem: `is needed ${what}` }],
  });
}
