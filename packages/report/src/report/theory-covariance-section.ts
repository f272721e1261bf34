import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fitCovarianceName } from '@partonfit/fit-folder';
import {
  parseCovarianceTable,
  userCovarianceLabel,
  type CovarianceTable,
} from '@partonfit/fktables';
import { correlationFigure, type CorrelationCell } from '../figures/correlation-figure.js';
import type { ReportSection } from '../render/html-page.js';
import type { FitRecords } from '../records/fit-records.js';

/** The largest number of rows and columns the correlation figure draws; beyond, points are binned. */
const MAX_CELLS_PER_AXIS = 150;

/**
 * The correlation matrix ρ_ij = S_ij / √(S_ii S_jj) of a covariance table, averaged over bins of
 * consecutive points when there are more than {@link MAX_CELLS_PER_AXIS} (0 where S_ii = 0).
 */
export function theoryCorrelationCells({ points, covariance }: CovarianceTable): {
  cells: CorrelationCell[];
  binSize: number;
} {
  const n = points.length;
  const binSize = Math.ceil(n / MAX_CELLS_PER_AXIS);
  const bins = Math.ceil(n / binSize);
  const sigma = Array.from({ length: n }, (_, i) => Math.sqrt(covariance.data[i * n + i]));
  const sums = new Float64Array(bins * bins);
  const counts = new Float64Array(bins * bins);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const scale = sigma[i] * sigma[j];
      const cell = Math.floor(i / binSize) * bins + Math.floor(j / binSize);
      sums[cell] += scale > 0 ? covariance.data[i * n + j] / scale : 0;
      counts[cell] += 1;
    }
  }
  const cells = Array.from({ length: bins * bins }, (_, cell) => {
    const [row, column] = [Math.floor(cell / bins), cell % bins];
    return {
      row,
      column,
      rowDataset: points[row * binSize].dataset,
      columnDataset: points[column * binSize].dataset,
      correlation: sums[cell] / counts[cell],
    };
  });
  return { cells, binSize };
}

/** Where a fit used S, in words. */
function usedIn(inFitting: boolean, inSampling: boolean): string {
  const places = [...(inFitting ? ['the χ²'] : []), ...(inSampling ? ['the pseudodata'] : [])];
  return places.length === 0 ? 'neither the χ² nor the pseudodata' : places.join(' and ');
}

/**
 * The theory covariance of a fit that had one (`theorycovmatconfig`): where S entered, the
 * χ²/n of the replica average with and without it (C the fit's t0 or experimental covariance,
 * named from the runcard), and S's correlation matrix from the fit folder's
 * `tables/theory_covariance.csv`; undefined for a fit without one.
 */
export async function theoryCovarianceSection(
  records: FitRecords,
): Promise<ReportSection | undefined> {
  const use = records.summary?.theoryCovariance;
  if (use === undefined) return undefined;
  const file = join(records.folder, use.table);
  const table = parseCovarianceTable(await readFile(file, 'utf8'), file);
  const { cells, binSize } = theoryCorrelationCells(table);
  const quality = records.summary?.quality;
  const sources = [
    ...(use.prescriptions.length === 0
      ? []
      : [`the ${use.prescriptions.join(' + ')} prescription`]),
    ...(use.userCovariance === undefined
      ? []
      : [
          `the user covariance ${userCovarianceLabel(use.userCovariance, use.userCovarianceFactor)}`,
        ]),
  ];
  const rows: [string, string | number][] = [
    ['theory covariance', sources.join(' + ')],
    ['used in', usedIn(use.inFitting, use.inSampling)],
    ['points', table.points.length],
  ];
  if (quality !== undefined) {
    rows.push(
      ['C, the fit’s covariance without S', fitCovarianceName(records.runcard)],
      [
        `χ²/n of the replica average, with ${use.inFitting ? 'C + S' : 'C'}`,
        quality.averageChi2PerPoint,
      ],
    );
    if (quality.averageChi2PerPointWithoutTheory !== undefined) {
      rows.push([
        'χ²/n of the replica average, with C alone',
        quality.averageChi2PerPointWithoutTheory,
      ]);
    }
  }
  const binning =
    binSize === 1 ? '' : ` Each cell averages ${binSize} × ${binSize} consecutive points.`;
  return {
    id: 'theory-covariance',
    title: 'Theory covariance',
    notes: [`S is kept in ${use.table}, in validphys's table layout.`],
    tables: [{ id: 'theory-covariance', title: 'Theory covariance', columns: ['', 'value'], rows }],
    figures: [
      correlationFigure(
        'theory-correlation',
        'Correlation matrix of the theory covariance',
        `ρ_ij = S_ij / √(S_ii S_jj) over the fitted points in the fit's order (datasets in runcard order); points with no shift are 0.${binning}`,
        cells,
      ),
    ],
  };
}
