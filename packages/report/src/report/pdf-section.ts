import { distanceFigure, pdfFigure } from '../figures/figure-specs.js';
import {
  pdfBandRows,
  pdfReplicaRows,
  type PdfBandOptions,
  type PdfBasis,
} from '../pdf/pdf-bands.js';
import { pdfDistanceRows } from '../pdf/pdf-distances.js';
import { scaleText } from '../pdf/evolved-pdfs.js';
import type { PdfReplicas } from '../pdf/pdf-replicas.js';
import type { ReportSection } from '../render/html-page.js';

const PDF_VIEWS: readonly { basis: PdfBasis; xScale: 'log' | 'linear' }[] = [
  { basis: 'flavour', xScale: 'log' },
  { basis: 'flavour', xScale: 'linear' },
  { basis: 'evolution', xScale: 'log' },
  { basis: 'evolution', xScale: 'linear' },
];

/**
 * The suffix of the section and figure ids of the PDFs at a scale other than the fit's Q0:
 * `-q100` at 100 GeV, `-q1p65` at 1.65 GeV.
 */
export function scaleIdSuffix(q: number): string {
  return `-q${scaleText(q).replace('.', 'p')}`;
}

/**
 * The PDFs section at one scale: every set's bands in the flavour and evolution bases, log and
 * linear x, the ratios to the first compare set, and the distances from the fit of compare sets
 * with replicas. Its id and its figures' ids end in `idSuffix` (none at the fit's Q0,
 * {@link scaleIdSuffix} at the other scales).
 *
 * @param sets - the fit first, then the compare sets and a closure test's truth, at one scale
 */
export function pdfSection(
  sets: readonly PdfReplicas[],
  notes: readonly string[],
  replicaCurves: boolean,
  idSuffix = '',
): ReportSection {
  const [fit] = sets;
  const scale = `Q = ${scaleText(fit.q)} GeV`;
  const curves = (basis: PdfBasis, options: PdfBandOptions) =>
    replicaCurves ? sets.flatMap((set) => pdfReplicaRows(set, basis, options)) : [];
  const figures = PDF_VIEWS.map(({ basis, xScale }) =>
    pdfFigure(
      sets.flatMap((set) => pdfBandRows(set, basis, { xMin: xScale === 'log' ? 1e-5 : 1e-3 })),
      {
        replicas: curves(basis, { xMin: xScale === 'log' ? 1e-5 : 1e-3 }),
        id: `pdf-${basis}-${xScale}x${idSuffix}`,
        title: `PDFs at ${scale}, ${basis} basis, ${xScale} x`,
        caption: `x·f at ${scale}: central value (mean of the replicas for a fit), 68 % confidence band (filled) and 1σ band (dashed).`,
        xScale,
        ratio: false,
      },
    ),
  );
  const compared = sets.filter((set) => set.kind !== 'truth' && set !== fit);
  if (compared.length > 0) {
    const base = compared[0];
    figures.push(
      pdfFigure(
        sets.flatMap((set) => pdfBandRows(set, 'flavour', { reference: base })),
        {
          replicas: curves('flavour', { reference: base }),
          id: `pdf-ratio-flavour-logx${idSuffix}`,
          title: `Ratio to ${base.label} at ${scale}, flavour basis`,
          caption: `Each set’s central value and bands divided by ${base.label}’s central value.`,
          xScale: 'log',
          ratio: true,
        },
      ),
    );
  }
  const distances = distanceFigures(fit, compared, scale, idSuffix);
  figures.push(...distances.figures);
  return {
    id: `pdfs${idSuffix}`,
    title: `PDFs at ${scale}`,
    notes: [
      ...sets.flatMap((set) => set.notes.map((note) => `${set.label}: ${note}`)),
      ...notes,
      ...distances.notes,
    ],
    tables: [],
    figures,
  };
}

/** The distances of each compare set with replicas from the fit, flavour basis. */
function distanceFigures(
  fit: PdfReplicas,
  compared: readonly PdfReplicas[],
  scale: string,
  idSuffix: string,
) {
  const notes: string[] = [];
  const rows = compared.flatMap((set) => {
    try {
      return pdfDistanceRows(set, fit, 'flavour');
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      notes.push(`no distances: ${error.message}`);
      return [];
    }
  });
  if (rows.length === 0) return { figures: [], notes };
  const figure = distanceFigure(rows, fit.label);
  const title = `${figure.title} at ${scale}`;
  return { figures: [{ ...figure, id: `${figure.id}${idSuffix}`, title }], notes };
}
