import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMatrix } from '@partonfit/core';
import { formatCovarianceTable, type CovariancePoint } from '@partonfit/fktables';
import type { FitRecords } from '../records/fit-records.js';
import { theoryCorrelationCells, theoryCovarianceSection } from './theory-covariance-section.js';

/** n points of one dataset whose S has unit variances and correlation `rho` between neighbours. */
function table(n: number, rho: number) {
  const points: CovariancePoint[] = Array.from({ length: n }, (_, id) => ({
    group: 'DIS NC',
    dataset: id < n / 2 ? 'A' : 'B',
    id,
  }));
  const covariance = createMatrix(n, n);
  for (let i = 0; i < n; i++) {
    covariance.data[i * n + i] = 4;
    if (i + 1 < n) {
      covariance.data[i * n + i + 1] = 4 * rho;
      covariance.data[(i + 1) * n + i] = 4 * rho;
    }
  }
  return { points, covariance };
}

describe('theoryCorrelationCells', () => {
  it('gives S_ij / √(S_ii S_jj) per pair of points', () => {
    const { cells, binSize } = theoryCorrelationCells(table(4, 0.5));
    expect(binSize).toBe(1);
    expect(cells).toHaveLength(16);
    expect(cells.find((cell) => cell.row === 1 && cell.column === 2)?.correlation).toBe(0.5);
    expect(cells.find((cell) => cell.row === 3 && cell.column === 3)).toMatchObject({
      correlation: 1,
      rowDataset: 'B',
    });
    expect(cells.find((cell) => cell.row === 0 && cell.column === 3)?.correlation).toBe(0);
  });

  it('averages bins of points beyond 150 per axis', () => {
    const { cells, binSize } = theoryCorrelationCells(table(301, 0.5));
    expect(binSize).toBe(3);
    expect(cells).toHaveLength(101 * 101);
    // a diagonal bin: 3 ones and 4 neighbour pairs of 0.5 over 9 entries
    expect(cells[0].correlation).toBeCloseTo((3 + 4 * 0.5) / 9, 14);
  });
});

describe('theoryCovarianceSection', () => {
  it('says where S entered, what C is, the χ²/n with and without S, and draws its correlations', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-report-theory-'));
    await mkdir(join(folder, 'tables'));
    await writeFile(
      join(folder, 'tables', 'theory_covariance.csv'),
      formatCovarianceTable(table(6, -0.25)),
    );
    const records = {
      folder,
      runcard: {
        datacuts: { t0pdfset: 'NNPDF40_nnlo_as_01180' },
        dataset_inputs: [{ dataset: 'TOY_NC_F2', weight: 1 }],
      },
      summary: {
        theoryCovariance: {
          prescriptions: ['7 point'],
          userCovariance: undefined,
          inFitting: true,
          inSampling: false,
          table: 'tables/theory_covariance.csv',
        },
        quality: { averageChi2PerPoint: 0.8, averageChi2PerPointWithoutTheory: 1.3 },
      },
    } as unknown as FitRecords;
    const section = await theoryCovarianceSection(records);
    expect(section?.tables[0].rows).toEqual([
      ['theory covariance', 'the 7 point prescription'],
      ['used in', 'the χ²'],
      ['points', 6],
      ['C, the fit’s covariance without S', 't0 covariance (t0pdfset NNPDF40_nnlo_as_01180)'],
      ['χ²/n of the replica average, with C + S', 0.8],
      ['χ²/n of the replica average, with C alone', 1.3],
    ]);
    expect(section?.figures[0].rows).toHaveLength(36);
    expect(
      await theoryCovarianceSection({ folder, summary: {} } as unknown as FitRecords),
    ).toBeUndefined();
  });

  it('names the user covariance with its factor', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-report-user-'));
    await mkdir(join(folder, 'tables'));
    await writeFile(
      join(folder, 'tables', 'theory_covariance.csv'),
      formatCovarianceTable(table(3, 0.5)),
    );
    const summary = {
      theoryCovariance: {
        prescriptions: [],
        userCovariance: 'user.csv',
        userCovarianceFactor: 2.5,
        inFitting: false,
        inSampling: true,
        table: 'tables/theory_covariance.csv',
      },
    };
    const section = await theoryCovarianceSection({ folder, summary } as unknown as FitRecords);
    expect(section?.tables[0].rows[0]).toEqual([
      'theory covariance',
      'the user covariance user.csv × 2.5',
    ]);
  });
});
