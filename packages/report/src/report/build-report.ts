import { basename, join, resolve } from 'node:path';
import { InputFileError, PartonfitError } from '@partonfit/core';
import { fitReplicaSource } from '@partonfit/fit-folder';
import { closureTruth, inputPaths, type PdfAtXGrid } from '@partonfit/fktables';
import { closureBiasVariance, type DatasetBiasVariance } from '../chi2/closure-bias.js';
import {
  compareWithData,
  predictingPdf,
  runcardDatasets,
  type DatasetComparison,
} from '../chi2/dataset-predictions.js';
import type { Chi2Row } from '../figures/figure-specs.js';
import {
  checkReportScales,
  evolutionOperatorOf,
  evolutionOptions,
  evolvePdfReplicas,
  isSameScale,
  scaleText,
  type PdfEvolution,
} from '../pdf/evolved-pdfs.js';
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
import { pdfSection, scaleIdSuffix } from './pdf-section.js';
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
  /**
   * The scales Q in GeV to draw the PDFs at, one section each (default: the fit's Q0 only). The
   * fit's Q0 draws its exportgrids; every other scale needs `evolution`.
   */
  readonly scales?: readonly number[];
  /** How the PDFs are evolved to the `scales` other than the fit's Q0. */
  readonly evolution?: PdfEvolution;
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

/**
 * A set the PDF figures draw: one read at the fit's Q0 and evolved to the other scales (a fit, a
 * compare fit, a closure test's truth), or an LHAPDF set read at each scale.
 */
type FigureSet =
  { readonly atQ0: PdfReplicas } | { readonly lhapdf: string; readonly label: string | undefined };

/** A compare set: a fit folder read at Q0 (on the fit's x grid), or an LHAPDF set. */
async function compareSet(path: string, fit: PdfReplicas, label?: string): Promise<FigureSet> {
  if ((await fitReplicaSource(path)) === undefined) return { lhapdf: path, label };
  const other = await fitPdfReplicas(path);
  const same =
    other.xGrid.length === fit.xGrid.length && other.xGrid.every((x, i) => x === fit.xGrid[i]);
  if (!same) throw new InputFileError({ file: path, problem: `its x grid is not ${fit.label}'s` });
  return { atQ0: { ...other, label: label ?? other.label } };
}

/** A compare set's problem as a note that names it. */
function compareNote(path: string, error: unknown): string {
  const problem = problemOf(error);
  return problem.includes(path) ? problem : `${path}: ${problem}`;
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
 * The scales the PDFs are drawn at, checked against the fit's Q0 ({@link checkReportScales}), in
 * increasing order, scales written alike ({@link scaleText}) once, the fit's Q0 as the fit's own
 * value.
 *
 * @throws InvalidArgumentError for a scale that cannot be drawn (with a theory card of another Q0)
 */
function drawnScales(fit: PdfReplicas, options: ReportOptions): number[] {
  const requested = options.scales ?? [fit.q];
  checkReportScales(requested, fit.q, options.evolution?.card);
  const byText = new Map<string, number>();
  for (const q of requested) {
    const scale = isSameScale(q, fit.q) ? fit.q : q;
    if (!byText.has(scaleText(scale))) byText.set(scaleText(scale), scale);
  }
  return [...byText.values()].sort((a, b) => a - b);
}

/**
 * The PDFs sections, one per scale: at the fit's Q0 the sets as read; at every other scale the
 * sets read at Q0 evolved by one operator for all those scales, and the LHAPDF sets read there.
 *
 * @param sets - the fit (`fit`) first, then the compare sets and a closure test's truth
 */
async function pdfSections(
  fit: PdfReplicas,
  sets: readonly FigureSet[],
  notes: readonly string[],
  scales: readonly number[],
  options: ReportOptions,
): Promise<ReportSection[]> {
  const replicaCurves = options.replicaCurves ?? false;
  const evolvedScales = scales.filter((q) => !isSameScale(q, fit.q));
  const evolved = new Map<PdfReplicas, PdfReplicas[]>();
  const evolution = options.evolution;
  const evolutionNotes: string[] = [];
  if (evolvedScales.length > 0 && evolution !== undefined) {
    const operator = await evolutionOperatorOf(
      evolution,
      evolutionOptions(evolution, fit.xGrid, evolvedScales),
    );
    for (const set of sets) {
      if (!('atQ0' in set)) continue;
      try {
        evolved.set(set.atQ0, evolvePdfReplicas(set.atQ0, operator, evolution.card.file));
      } catch (error) {
        evolutionNotes.push(`${set.atQ0.label}: not evolved: ${problemOf(error)}`);
      }
    }
  }
  const sections: ReportSection[] = [];
  for (const q of scales) {
    const atFitQ0 = isSameScale(q, fit.q);
    const index = evolvedScales.indexOf(q);
    const drawn: PdfReplicas[] = [];
    const scaleNotes = [...notes, ...(atFitQ0 ? [] : evolutionNotes)];
    for (const set of sets) {
      if ('atQ0' in set) {
        const at = atFitQ0 ? set.atQ0 : evolved.get(set.atQ0)?.[index];
        if (at !== undefined) drawn.push(at);
        continue;
      }
      try {
        const read = await lhapdfPdfReplicas(set.lhapdf, fit.xGrid, q);
        drawn.push({ ...read, label: set.label ?? read.label });
      } catch (error) {
        scaleNotes.push(compareNote(set.lhapdf, error));
      }
    }
    sections.push(pdfSection(drawn, scaleNotes, replicaCurves, atFitQ0 ? '' : scaleIdSuffix(q)));
  }
  return sections;
}

/**
 * Builds the report of a fit folder: the fit summary (runcard, replicas passed and vetoed and
 * why, backend, timings, χ² per dataset for the fit and each compare set), the PDFs with their
 * bands at Q0 and at each of `scales` (flavour and evolution basis, log and linear x, ratios to
 * the first compare set, distances, a closure test's truth), the effective exponents of the fitted
 * flavours against the preprocessing ranges used and proposed for the next fit, the training
 * curves and stopping, the closure test's bias/variance, data against theory with pulls, and a
 * theory covariance's correlation matrix. Each section appears
 * only where its inputs exist; what cannot be shown is said in the report (`problems`) rather
 * than thrown.
 *
 * At a scale other than the fit's Q0, the fit's replicas, compare fits and a closure test's
 * truth are evolved from Q0 with `evolution` (one operator for all those scales, applied to all
 * replicas at once); LHAPDF compare sets are read at that scale. The scales are checked before
 * any other work.
 *
 * With `predictions` (the default) the fit's replicas are rebuilt from `weights.h5`, which needs
 * an initialised TensorFlow.js backend (`initBackend` of `@partonfit/backend`).
 *
 * @throws RuncardError for a fit folder without a valid `runcard.yml`; InputFileError for a
 *   folder without `nnfit/`; InvalidArgumentError (`scales`) for a scale other than the fit's Q0
 *   without `evolution` or with a theory card of another Q0 than the fit's, below the fit's Q0,
 *   or above the card's evolution grid (`largestEvolvedScale`)
 */
export async function buildReport(fitFolder: string, options: ReportOptions = {}): Promise<Report> {
  const folder = resolve(fitFolder);
  const records = await readFitRecords(folder);
  const problems = [...records.problems];
  const sections: ReportSection[] = [];
  const compare = options.compare ?? [];
  const labels = setLabels(records.fit, folder, compare);
  const fit = await fitPdfReplicas(folder).catch(problemOf);
  if (typeof fit === 'string') problems.push(`PDFs: ${fit}`);
  const scales = typeof fit === 'string' ? [] : drawnScales(fit, options);

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
  if (typeof fit !== 'string') {
    const sets: FigureSet[] = [{ atQ0: fit }];
    const notes: string[] = [];
    for (const path of compare) {
      try {
        sets.push(await compareSet(path, fit, labels.get(path)));
      } catch (error) {
        notes.push(compareNote(path, error));
      }
    }
    try {
      const truth = await closureTruthAt(records, folder, fit.q);
      const name = records.runcard.closuretest?.fakepdf;
      if (truth !== undefined) {
        sets.push({ atQ0: singlePdf(`truth (${name})`, truth, fit.xGrid, fit.q) });
      }
    } catch (error) {
      notes.push(`closure truth: ${problemOf(error)}`);
    }
    sections.push(...(await pdfSections(fit, sets, notes, scales, options)));
    try {
      sections.push(effectiveExponentsSection(fit, records.runcard));
    } catch (error) {
      problems.push(`effective exponents: ${problemOf(error)}`);
    }
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
