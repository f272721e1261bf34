import { EVOLUTION_BASIS, FLAVOUR_BASIS } from '@partonfit/core';
import type { PdfBasis } from './pdf-bands.js';
import { PDF_FIGURE_FLAVOURS } from './pdf-bands.js';
import { rotateMembers, type PdfReplicas } from './pdf-replicas.js';

/** NNPDF's statistical distances between two sets at one x for one flavour. */
export interface PdfDistanceRow {
  /** The set compared with the reference. */
  readonly set: string;
  readonly flavour: string;
  readonly x: number;
  /** Between central values: |⟨f₁⟩ − ⟨f₂⟩| / √(σ₁²/N₁ + σ₂²/N₂). */
  readonly central: number | null;
  /** Between uncertainties: |σ₁² − σ₂²| / √(Var[σ₁²] + Var[σ₂²]). */
  readonly uncertainty: number | null;
}

/** Mean, variance and the variance of the variance estimator of `values` (NNPDF3.0, app. A). */
function moments(values: Float64Array) {
  const count = values.length;
  const mean = values.reduce((sum, value) => sum + value, 0) / count;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (count - 1);
  const fourth = values.reduce((sum, value) => sum + (value - mean) ** 4, 0) / count;
  const varianceOfVariance = (fourth - ((count - 3) / (count - 1)) * variance ** 2) / count;
  return { mean, variance, varianceOfVariance, count };
}

/** A distance, or null where both sets have no spread (0/0). */
function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function replicaValues(
  pdf: PdfReplicas,
  values: Float64Array,
  point: number,
  flavour: number,
): Float64Array {
  const size = values.length / (pdf.replicaCount * pdf.xGrid.length);
  return Float64Array.from(
    { length: pdf.replicaCount },
    (_, r) => values[(r * pdf.xGrid.length + point) * size + flavour],
  );
}

/**
 * NNPDF's statistical distances (NNPDF3.0, arXiv:1410.8849, appendix A) between `pdf` and
 * `reference` at every x ≥ `xMin` for each flavour: between central values and between
 * uncertainties, both in units of their own statistical uncertainty, so that ~1 means the sets
 * agree within what their finite numbers of replicas allow. Both sets need two replicas or more
 * on the same x grid.
 *
 * @throws RangeError for sets with fewer than two replicas, or on different x grids
 */
export function pdfDistanceRows(
  pdf: PdfReplicas,
  reference: PdfReplicas,
  basis: PdfBasis,
  xMin = 1e-5,
): PdfDistanceRow[] {
  if (pdf.replicaCount < 2 || reference.replicaCount < 2) {
    throw new RangeError(
      `distances need two replicas or more: ${pdf.label} has ${pdf.replicaCount}, ${reference.label} ${reference.replicaCount}`,
    );
  }
  const sameGrid =
    pdf.xGrid.length === reference.xGrid.length &&
    pdf.xGrid.every((x, i) => x === reference.xGrid[i]);
  if (!sameGrid) throw new RangeError(`${pdf.label} and ${reference.label}: different x grids`);
  const members = basis === 'flavour' ? FLAVOUR_BASIS : EVOLUTION_BASIS;
  const [ours, theirs] = [pdf, reference].map((set) =>
    basis === 'flavour' ? set.replicas : rotateMembers(set.replicas, 'evolution'),
  );
  const rows: PdfDistanceRow[] = [];
  for (const name of PDF_FIGURE_FLAVOURS[basis]) {
    const flavour = members.findIndex((member) => member.name === name);
    pdf.xGrid.forEach((x, a) => {
      if (x < xMin) return;
      const one = moments(replicaValues(pdf, ours, a, flavour));
      const two = moments(replicaValues(reference, theirs, a, flavour));
      rows.push({
        set: pdf.label,
        flavour: members[flavour].label,
        x,
        central: finite(
          Math.abs(one.mean - two.mean) /
            Math.sqrt(one.variance / one.count + two.variance / two.count),
        ),
        uncertainty: finite(
          Math.abs(one.variance - two.variance) /
            Math.sqrt(one.varianceOfVariance + two.varianceOfVariance),
        ),
      });
    });
  }
  return rows;
}
