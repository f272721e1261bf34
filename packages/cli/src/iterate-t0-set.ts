import { basename, dirname, join, relative, resolve } from 'node:path';
import { InputFileError, type Runcard } from '@partonfit/core';
import { inputPaths, TOY_PDF_NAME } from '@partonfit/fktables';
import { pathExists } from '@partonfit/io';

/** Where the next fit finds this fit's evolved LHAPDF set, its `t0pdfset`. */
export interface T0SetLocation {
  /** The set's folder, `<folder>/<fit>`. */
  readonly setFolder: string;
  /**
   * The next runcard's new `data_paths.lhapdf` (relative to its folder), or undefined when the
   * folder it reads LHAPDF sets from already holds the set.
   */
  readonly lhapdfFolder: string | undefined;
}

/** Whether `folder` holds the LHAPDF set `name` (its `<name>.info`). */
function holdsSet(folder: string, name: string): Promise<boolean> {
  return pathExists(join(folder, name, `${name}.info`));
}

/**
 * Finds the LHAPDF set of the fit in `fitFolder`, which the next fit takes as `t0pdfset`, and says
 * how the next runcard (to be written as `runcardFile`) reaches it:
 *
 * 1. the set `partonfit evolve` writes by default, `<fit folder>/<fit>/`: the runcard's
 *    `data_paths.lhapdf` becomes the fit folder — unless the runcard reads another LHAPDF set
 *    from its LHAPDF folder (a closure test's `fakepdf`), which that would hide;
 * 2. else a set `<fit>` in the folder the runcard reads LHAPDF sets from (`data_paths.lhapdf`,
 *    else the data folder's `lhapdf/`), e.g. written there with `partonfit evolve --output`.
 *
 * @param fitFolder - the fit folder, absolute
 * @param given - the fit folder as the user gave it, for the commands the errors suggest
 * @throws InputFileError naming the set's `.info` file that is missing, with the
 *   `partonfit evolve` command that writes it
 */
export async function locateT0Set(
  fitFolder: string,
  given: string,
  runcard: Runcard,
  runcardFile: string,
): Promise<T0SetLocation> {
  const fit = basename(fitFolder);
  const lhapdf = inputPaths(runcard, runcardFile).lhapdf;
  const closure = runcard.closuretest;
  const otherSet =
    closure?.fakedata === true && closure.fakepdf !== undefined && closure.fakepdf !== TOY_PDF_NAME
      ? closure.fakepdf
      : undefined;
  if (await holdsSet(fitFolder, fit)) {
    const setFolder = join(fitFolder, fit);
    if (lhapdf !== undefined && resolve(lhapdf) === fitFolder) {
      return { setFolder, lhapdfFolder: undefined };
    }
    if (otherSet === undefined) {
      return { setFolder, lhapdfFolder: relative(dirname(runcardFile), fitFolder) || '.' };
    }
  }
  if (lhapdf !== undefined && (await holdsSet(lhapdf, fit))) {
    return { setFolder: join(lhapdf, fit), lhapdfFolder: undefined };
  }
  if (otherSet !== undefined && lhapdf !== undefined && (await holdsSet(fitFolder, fit))) {
    throw new InputFileError({
      file: join(lhapdf, fit, `${fit}.info`),
      problem: `missing: the next fit reads its LHAPDF sets from ${lhapdf}, where its closuretest.fakepdf ${otherSet} is, and the t0 set ${fit} must be there too: run \`partonfit evolve ${given} --output ${lhapdf}\``,
    });
  }
  throw new InputFileError({
    file: join(fitFolder, fit, `${fit}.info`),
    problem: `missing: the next fit's t0pdfset is this fit's evolved LHAPDF set; run \`partonfit evolve ${given}\` first`,
  });
}
