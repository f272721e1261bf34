import { EVOLUTION_BASIS, FLAVOUR_BASIS } from '@partonfit/core';
import { rotateMembers, type PdfReplicas } from './pdf-replicas.js';

/** The basis a PDF figure is drawn in. */
export type PdfBasis = 'flavour' | 'evolution';

/** The flavours a PDF figure shows, by basis (names of `FLAVOUR_BASIS` / `EVOLUTION_BASIS`). */
export const PDF_FIGURE_FLAVOURS: Readonly<Record<PdfBasis, readonly string[]>> = {
  flavour: ['GLUON', 'U', 'UBAR', 'D', 'DBAR', 'S', 'SBAR', 'C'],
  evolution: ['Sigma', 'g', 'V', 'V3', 'V8', 'T3', 'T8', 'T15'],
};

/** One point of one set's curve and bands: a row of a PDF figure's data. */
export interface PdfBandRow {
  readonly set: string;
  /** The flavour's label (`g`, `ū`, `Σ`, `T3`, …). */
  readonly flavour: string;
  readonly x: number;
  /** x·f of the central member (or the ratio to the reference's central value). */
  readonly central: number;
  /** Whether the set has a band (two replicas or more); the band columns are null without. */
  readonly band: boolean;
  /** The 68 % confidence interval of the replicas: the 16th and 84th percentiles. */
  readonly lower68: number | null;
  readonly upper68: number | null;
  /** The replicas' mean ± one standard deviation. */
  readonly lowerSigma: number | null;
  readonly upperSigma: number | null;
}

/** Linear interpolation between order statistics (numpy's default percentile). */
function percentile(sorted: Float64Array, fraction: number): number {
  const position = fraction * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low] + (position - low) * (sorted[high] - sorted[low]);
}

/** The band statistics of one (x, flavour) over the replicas. */
function bandAt(values: Float64Array) {
  const count = values.length;
  const mean = values.reduce((sum, value) => sum + value, 0) / count;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (count - 1);
  const sigma = Math.sqrt(variance);
  const sorted = Float64Array.from(values).sort();
  return {
    lower68: percentile(sorted, 0.16),
    upper68: percentile(sorted, 0.84),
    lowerSigma: mean - sigma,
    upperSigma: mean + sigma,
  };
}

/** A set's central values and replicas in `basis`, `(x, flavour)` and `(replicas, x, flavour)`. */
function inBasis(pdf: PdfReplicas, basis: PdfBasis) {
  if (basis === 'flavour') return { central: pdf.central, replicas: pdf.replicas };
  return {
    central: rotateMembers(pdf.central, 'evolution'),
    replicas: rotateMembers(pdf.replicas, 'evolution'),
  };
}

/** Options of {@link pdfBandRows}. */
export interface PdfBandOptions {
  /** The flavours shown; by default {@link PDF_FIGURE_FLAVOURS}. */
  readonly flavours?: readonly string[];
  /** The smallest x shown (default 10⁻⁵). */
  readonly xMin?: number;
  /** Divide every value by this set's central value (a ratio figure). */
  readonly reference?: PdfReplicas;
}

/**
 * The rows of a PDF figure for one set: for each flavour and x, the central value, the 68 %
 * confidence interval and the 1σ band of the replicas (percentiles 16/84 and mean ± σ, as
 * NNPDF's plots), optionally as ratios to a reference set's central value.
 *
 * @throws RangeError for a flavour name the basis does not have, or a reference on another x grid
 */
export function pdfBandRows(
  pdf: PdfReplicas,
  basis: PdfBasis,
  options: PdfBandOptions = {},
): PdfBandRow[] {
  const members = basis === 'flavour' ? FLAVOUR_BASIS : EVOLUTION_BASIS;
  const flavours = options.flavours ?? PDF_FIGURE_FLAVOURS[basis];
  const xMin = options.xMin ?? 1e-5;
  const { central, replicas } = inBasis(pdf, basis);
  const reference =
    options.reference === undefined ? undefined : inBasis(options.reference, basis).central;
  if (options.reference !== undefined && options.reference.xGrid.length !== pdf.xGrid.length) {
    throw new RangeError(`${options.reference.label} is on another x grid than ${pdf.label}`);
  }
  const size = members.length;
  const points = pdf.xGrid.length;
  const band = pdf.replicaCount >= 2;
  const rows: PdfBandRow[] = [];
  for (const name of flavours) {
    const flavour = members.findIndex((member) => member.name === name);
    if (flavour === -1) throw new RangeError(`no flavour ${name} in the ${basis} basis`);
    const label = members[flavour].label;
    pdf.xGrid.forEach((x, a) => {
      if (x < xMin) return;
      const scale = reference === undefined ? 1 : 1 / reference[a * size + flavour];
      const values = new Float64Array(pdf.replicaCount);
      for (let r = 0; r < pdf.replicaCount; r++) {
        values[r] = replicas[(r * points + a) * size + flavour];
      }
      const stats = band ? bandAt(values) : undefined;
      const scaled = (value: number | undefined) =>
        value === undefined || !Number.isFinite(value * scale) ? null : value * scale;
      rows.push({
        set: pdf.label,
        flavour: label,
        x,
        central: central[a * size + flavour] * scale,
        band,
        lower68: scaled(stats?.lower68),
        upper68: scaled(stats?.upper68),
        lowerSigma: scaled(stats?.lowerSigma),
        upperSigma: scaled(stats?.upperSigma),
      });
    });
  }
  return rows;
}

/** One point of one replica's curve: a row of a PDF figure's replica curves. */
export interface PdfReplicaRow {
  readonly set: string;
  readonly flavour: string;
  readonly x: number;
  readonly replica: number;
  /** x·f of the replica (or its ratio to the reference's central value). */
  readonly value: number;
}

/**
 * Every replica's curve of a set, for the PDF figures' replica curves (`replicaCurves`): the
 * same flavours, x range and reference as {@link pdfBandRows}.
 */
export function pdfReplicaRows(
  pdf: PdfReplicas,
  basis: PdfBasis,
  options: PdfBandOptions = {},
): PdfReplicaRow[] {
  const members = basis === 'flavour' ? FLAVOUR_BASIS : EVOLUTION_BASIS;
  const xMin = options.xMin ?? 1e-5;
  const { replicas } = inBasis(pdf, basis);
  const reference =
    options.reference === undefined ? undefined : inBasis(options.reference, basis).central;
  const size = members.length;
  const points = pdf.xGrid.length;
  const rows: PdfReplicaRow[] = [];
  for (const name of options.flavours ?? PDF_FIGURE_FLAVOURS[basis]) {
    const flavour = members.findIndex((member) => member.name === name);
    if (flavour === -1) throw new RangeError(`no flavour ${name} in the ${basis} basis`);
    for (let r = 0; r < pdf.replicaCount; r++) {
      pdf.xGrid.forEach((x, a) => {
        if (x < xMin) return;
        const scale = reference === undefined ? 1 : 1 / reference[a * size + flavour];
        rows.push({
          set: pdf.label,
          flavour: members[flavour].label,
          x,
          replica: r + 1,
          value: replicas[(r * points + a) * size + flavour] * scale,
        });
      });
    }
  }
  return rows;
}
