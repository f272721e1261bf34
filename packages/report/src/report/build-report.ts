import { basename, join, resolve } from 'node:path';
import { InputFileError, PartonfitError } from '@partonfit/core';
import { closureTruth, inputPaths, type PdfAtXGrid } from '@partonfit/fktables';
import { closureBiasVariance, type DatasetBiasVariance } from '../chi2/closure-bias.js';
import { isFitFolder } from '@partonfit/trainer';
import {
  compareWithData,
  predictingPdf,
  runcardDatasets,
  type DatasetComparison,
} from '../chi2/dataset-predictions.js';
import type { Chi2Row } from '../figures/figure-specs.js';
import {
  fitPdfReplicas,
  lhapdfPdfReplicas,
  singlePdf,
  type PdfReplicas,
} from '../pdf/pdf-replicas.js';
import { readFitRecords, type FitRecords } from '../records/fit-records.js';
import type { ReportSection } from '../render/html-page.js';
import { dataTheorySection } from './data-theory-section.js';
import { effectiveExponentsSection } from './effective-exponents-section.js';
import { pdfSection } from './pdf-section.js';
import { theoryCovarianceSection } from './theory-covariance-section.js';
import { summarySection } from './summary-section.js';
import { closureSection, trainingSection } from './training-section.js';

/** Options of {@link buildReport}. */
export interface ReportOptions {
  /** LHAPDF set folders or fit folders to compare with; the first is the ratios' reference. */
  readonly compare?: readonly string[];
  /** Whether to compute the χ² table and data–theory figures (they need a tfjs backend). */
  readonly predictions?: boolean;
  /** Whether the PDF figures also draw every replica's curve (default false). */
  readonly replicaCurves?: boolean;
}

/** A fit's report: its sections, ready to write ({@link writeReport}). */
export interface Report {
  readonly title: string;
  readonly fit: string;
  readonly sections: readonly ReportSection[];
  /** What could not be shown, and why. */
  readonly problems: readonly string[];
}

/** The message of a partonfit error (bad input), which the report shows; anything else is a bug. */
function problemOf(error: unknown): string {
  if (PartonfitError.isInstance(error)) return error.message;
  throw error;
}

async function comparePdf(path: string, fit: PdfReplicas): Promise<PdfReplicas> {
  if (await isFitFolder(path)) {
    const folder = resolve(path);
    const other = await fitPdfReplicas(folder, basename(folder));
    const same =
      other.xGrid.length === fit.xGrid.length && other.xGrid.every((x, i) => x === fit.xGrid[i]);
    if (!same)
      throw new InputFileError({ file: path, problem: `its x grid is not ${fit.label}'s` });
    return other;
  }
  return lhapdfPdfReplicas(path, fit.xGrid, fit.q);
}

/** A closure test's truth at `q0` (x·f in the evolution basis), or undefined for other fits. */
async function closureTruthAt(
  records: FitRecords,
  folder: string,
  q0: number,
): Promise<PdfAtXGrid | undefined> {
  const closure = records.runcard.closuretest;
  if (closure?.fakedata !== true || closure.fakepdf === undefined) return undefined;
  const paths = inputPaths(records.runcard, join(folder, 'runcard.yml'));
  return (await closureTruth(closure.fakepdf, paths, q0)).xf;
}

/**
 * The names figures and tables give the fit and each compare set: the folder's name (a fit's
 * name, an LHAPDF set's), or the path as given where two would have the same.
 */
function setLabels(fit: string, folder: string, compare: readonly string[]): Map<string, string> {
  const labels = new Map([[folder, fit]]);
  const taken = new Set([fit]);
  for (const path of compare) {
    const name = basename(resolve(path));
    const label = taken.has(name) ? path : name;
    taken.add(label);
    labels.set(path, label);
  }
  return labels;
}

/**
 * Builds the report of a fit folder: the fit summary (runcard, replicas passed and vetoed and
 * why, backend, timings, χ² per dataset for the fit and each compare set), the PDFs at Q0 with
 * their bands (flavour and evolution basis, log and linear x, ratios to the first compare set,
 * a closure test's truth), the effective exponents of the fitted flavours against the
 * preprocessing ranges used and proposed for the next fit, the training curves and stopping,
 * the closure test's bias/variance, and data against theory with pulls. Each section appears only where its inputs exist; what
 * cannot be shown is said in the report (`problems`) rather than thrown.
 *
 * With `predictions` (the default) the fit's replicas are rebuilt from `weights.h5`, which needs
 * an initialised TensorFlow.js backend (`initBackend` of `@partonfit/backend`).
 *
 * @throws RuncardError for a fit folder without a valid `runcard.yml`; InputFileError for a
 *   folder without `nnfit/`
 */
export async function buildReport(fitFolder: string, options: ReportOptions = {}): Promise<Report> {
  const folder = resolve(fitFolder);
  const records = await readFitRecords(folder);
  const problems = [...records.problems];
  const sections: ReportSection[] = [];
  const compare = options.compare ?? [];
  const labels = setLabels(records.fit, folder, compare);

  const chi2Rows: Chi2Row[] = [];
  const comparisons: DatasetComparison[] = [];
  const biasVariance: DatasetBiasVariance[] = [];
  if (options.predictions ?? true) {
    const { datasets, problems: missing } = await runcardDatasets(records.runcard, folder);
    problems.push(...missing);
    for (const path of [folder, ...compare]) {
      try {
        const pdf = await predictingPdf(path);
        const found = await compareWithData(
          { ...pdf, label: labels.get(path) ?? pdf.label },
          datasets,
        );
        comparisons.push(...found);
        chi2Rows.push(...found.map((entry) => ({ ...entry.chi2 })));
      } catch (error) {
        problems.push(`χ² of ${path}: ${problemOf(error)}`);
      }
    }
    const fitted = comparisons.filter((comparison) => comparison.set === records.fit);
    if (fitted.length > 0) {
      try {
        const q0 = fitted[0].dataset.observable.operands[0][0].q0;
        const truth = await closureTruthAt(records, folder, q0);
        if (truth !== undefined) biasVariance.push(...closureBiasVariance(fitted, truth));
      } catch (error) {
        problems.push(`closure bias/variance: ${problemOf(error)}`);
      }
    }
  }
  try {
    const fit = await fitPdfReplicas(folder, records.fit);
    const sets = [fit];
    const notes: string[] = [];
    for (const path of compare) {
      try {
        const set = await comparePdf(path, fit);
        sets.push({ ...set, label: labels.get(path) ?? set.label });
      } catch (error) {
        const problem = problemOf(error);
        notes.push(problem.includes(path) ? problem : `${path}: ${problem}`);
      }
    }
    try {
      const truth = await closureTruthAt(records, folder, fit.q);
      const name = records.runcard.closuretest?.fakepdf;
      if (truth !== undefined) sets.push(singlePdf(`truth (${name})`, truth, fit.xGrid, fit.q));
    } catch (error) {
      notes.push(`closure truth: ${problemOf(error)}`);
    }
    sections.push(pdfSection(sets, notes, options.replicaCurves ?? false));
    try {
      sections.push(effectiveExponentsSection(fit, records.runcard));
    } catch (error) {
      problems.push(`effective exponents: ${problemOf(error)}`);
    }
  } catch (error) {
    problems.push(`PDFs: ${problemOf(error)}`);
  }

  const training = trainingSection(records);
  if (training !== undefined) sections.push(training);
  const closure = closureSection(records, biasVariance);
  if (closure !== undefined) sections.push(closure);
  if (comparisons.length > 0) sections.push(dataTheorySection(comparisons));
  try {
    const theory = await theoryCovarianceSection(records);
    if (theory !== undefined) sections.push(theory);
  } catch (error) {
    problems.push(`theory covariance: ${problemOf(error)}`);
  }
  sections.unshift(summarySection({ ...records, problems }, chi2Rows));
  return { title: `partonfit report: ${records.fit}`, fit: records.fit, sections, problems };
}
