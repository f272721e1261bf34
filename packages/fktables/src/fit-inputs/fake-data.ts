import { join } from 'node:path';
import { deriveNamedSeed, type Runcard } from '@partonfit/core';
import { evolutionBasisXf, loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { toyPdfXf } from '../closure/toy-pdf.js';
import { covarianceBlocks } from '../covariance/covariance-matrix.js';
import { predictObservable, type PdfAtXGrid } from '../fktable/predict.js';
import { factorCovarianceBlocks } from '../pseudodata/covariance-blocks.js';
import { replicaPseudodata } from '../pseudodata/pseudodata.js';
import { missingSetting, type InputPaths } from './input-paths.js';
import type { ResolvedDataset } from './resolve-dataset.js';

/** The name of the embedded Les Houches toy PDF as a `closuretest.fakepdf`. */
export const TOY_PDF_NAME = 'toyLH';

/** The PDF that makes a closure test's fake data, and the file it was read from. */
export interface ClosureTruth {
  /** x·f `(x, 14)` in the evolution basis at Q0. */
  readonly xf: PdfAtXGrid;
  /** The LHAPDF member file, or undefined for the embedded toy PDF. */
  readonly file: string | undefined;
}

/**
 * The PDF that makes a closure test's fake data (`closuretest.fakepdf`): the embedded toy PDF
 * (`toyLH`), or member 0 of an LHAPDF set at Q0.
 */
export async function closureTruth(
  name: string,
  paths: InputPaths,
  q0: number,
): Promise<ClosureTruth> {
  if (name === TOY_PDF_NAME) return { xf: toyPdfXf, file: undefined };
  if (paths.lhapdf === undefined) {
    throw missingSetting(paths, 'data_paths.lhapdf', `to read the closure-test PDF ${name}`);
  }
  const central = await loadLhapdfMember(await loadLhapdfSet(join(paths.lhapdf, name)), 0);
  return { xf: (xGrid) => evolutionBasisXf(central, xGrid, q0), file: central.file };
}

/** The datasets of {@link withFakeData}, and the closure-test PDF's file (an input of the fit). */
export interface FakeData {
  readonly datasets: ResolvedDataset[];
  /** The LHAPDF member file of `fakepdf`; undefined for the toy PDF or without fake data. */
  readonly truthFile: string | undefined;
}

/**
 * The datasets of a closure test (`closuretest.fakedata`): central values replaced by the
 * predictions of `fakepdf` (level 0) and, with `fakenoise`, shifted once by L·z with L the
 * experimental covariance's Cholesky factor and z drawn from `filterseed` (level 1). The
 * uncertainties keep their values. Without `fakedata` the datasets are returned unchanged.
 */
export async function withFakeData(
  runcard: Runcard,
  paths: InputPaths,
  datasets: readonly ResolvedDataset[],
  q0: number,
): Promise<FakeData> {
  const closure = runcard.closuretest;
  if (closure?.fakedata !== true || closure.fakepdf === undefined) {
    return { datasets: [...datasets], truthFile: undefined };
  }
  const { xf: pdf, file: truthFile } = await closureTruth(closure.fakepdf, paths, q0);
  const level0 = datasets.map((dataset) => ({
    ...dataset,
    commonData: { ...dataset.commonData, central: predictObservable(dataset.observable, pdf) },
  }));
  if (!closure.fakenoise) return { datasets: level0, truthFile };
  const central = new Float64Array(
    level0.reduce((sum, dataset) => sum + dataset.commonData.ndata, 0),
  );
  let offset = 0;
  for (const dataset of level0) {
    central.set(dataset.commonData.central, offset);
    offset += dataset.commonData.ndata;
  }
  const blocks = factorCovarianceBlocks(
    covarianceBlocks(level0.map((dataset) => dataset.commonData)),
  );
  const noisy = replicaPseudodata(
    { central, blocks, mcseed: deriveNamedSeed(closure.filterseed, 'closure test') },
    1,
  );
  offset = 0;
  const fluctuated = level0.map((dataset) => {
    const values = noisy.slice(offset, offset + dataset.commonData.ndata);
    offset += dataset.commonData.ndata;
    return { ...dataset, commonData: { ...dataset.commonData, central: values } };
  });
  return { datasets: fluctuated, truthFile };
}
