import { distanceFigure, pdfFigure } from '../figures/figure-specs.js';
import {
  pdfBandRows,
  pdfReplicaRows,
  type PdfBandOptions,
  type PdfBasis,
} from '../pdf/pdf-bands.js';
import { pdfDistanceRows } from '../pdf/pdf-distances.js';
import type { PdfReplicas } from '../pdf/pdf-replicas.js';
import type { ReportSection } from '../render/html-page.js';

const PDF_VIEWS: readonly { basis: PdfBasis; xScale: 'log' | 'linear' }[] = [
  { basis: 'flavour', xScale: 'log' },
  { basis: 'flavour', xScale: 'linear' },
  { basis: 'evolution', xScale: 'log' },
  { basis: 'evolution', xScale: 'linear' },
];

/**
 * The PDFs section: every set's bands in the flavour and evolution bases, log and linear x, the
 * ratios to the first compare set, and the distances from the fit of compare sets with replicas.
 *
 * @param sets - the fit first, then the compare sets and a closure test's truth
 */
export function pdfSection(
  sets: readonly PdfReplicas[],
  notes: readonly string[],
  replicaCurves: boolean,
): ReportSection {
  const [fit] = sets;
  const scale = `Q = ${fit.q.toPrecision(4)} GeV`;
  const curves = (basis: PdfBasis, options: PdfBandOptions) =>
    replicaCurves ? sets.flatMap((set) => pdfReplicaRows(set, basis, options)) : [];
  const figures = PDF_VIEWS.map(({ basis, xScale }) =>
    pdfFigure(
      sets.flatMap((set) => pdfBandRows(set, basis, { xMin: xScale === 'log' ? 1e-5 : 1e-3 })),
      {
        replicas: curves(basis, { xMin: xScale === 'log' ? 1e-5 : 1e-3 }),
        id: `pdf-${basis}-${xScale}x`,
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
          id: 'pdf-ratio-flavour-logx',
          title: `Ratio to ${base.label} at ${scale}, flavour basis`,
          caption: `Each set’s central value and bands divided by ${base.label}’s central value.`,
          xScale: 'log',
          ratio: true,
        },
      ),
    );
  }
  const distances = distanceFigures(fit, compared);
  figures.push(...distances.figures);
  return {
    id: 'pdfs',
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
function distanceFigures(fit: PdfReplicas, compared: readonly PdfReplicas[]) {
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
  return { figures: rows.length === 0 ? [] : [distanceFigure(rows, fit.label)], notes };
}
