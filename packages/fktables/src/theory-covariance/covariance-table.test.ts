import { describe, expect, it } from 'vitest';
import { createMatrix } from '@partonfit/core';
import { inputFileError } from '@partonfit/testing';
import {
  covarianceOnFittedData,
  formatCovarianceTable,
  parseCovarianceTable,
} from './covariance-table.js';

/** A table as validphys writes it: tab-separated, three header rows, the index names. */
const VALIDPHYS_TABLE = [
  'group\t\t\tDIS NC\tDIS NC\tDIS CC',
  'dataset\t\t\tNMC_NC_EM-F2\tNMC_NC_EM-F2\tHERA_CC_EM-SIGMARED',
  'id\t\t\t16\t21\t3',
  'group\tdataset\tid\t\t\t',
  'DIS NC\tNMC_NC_EM-F2\t16\t0.00029\t0.0002\t1e-05',
  'DIS NC\tNMC_NC_EM-F2\t21\t0.0002\t0.00014\t2e-05',
  'DIS CC\tHERA_CC_EM-SIGMARED\t3\t1e-05\t2e-05\t0.004',
  '',
].join('\n');

describe('parseCovarianceTable', () => {
  it('reads validphys’s layout: the points of rows and columns and the matrix', () => {
    const table = parseCovarianceTable(VALIDPHYS_TABLE, 'covmat.csv');
    expect(table.points).toEqual([
      { group: 'DIS NC', dataset: 'NMC_NC_EM-F2', id: 16 },
      { group: 'DIS NC', dataset: 'NMC_NC_EM-F2', id: 21 },
      { group: 'DIS CC', dataset: 'HERA_CC_EM-SIGMARED', id: 3 },
    ]);
    expect(Array.from(table.covariance.data)).toEqual([
      0.00029, 0.0002, 1e-5, 0.0002, 0.00014, 2e-5, 1e-5, 2e-5, 0.004,
    ]);
  });

  it('reads the comma-separated layout of DataFrame.to_csv, and what it formats back', () => {
    const commas = VALIDPHYS_TABLE.replaceAll('\t', ',');
    const table = parseCovarianceTable(commas, 'covmat.csv');
    expect(table.covariance.data[8]).toBe(0.004);
    const again = parseCovarianceTable(formatCovarianceTable(table), 'again.csv');
    expect(again).toEqual(table);
  });

  it('reads the levels by position, whatever the index names (process, index)', () => {
    const renamed = VALIDPHYS_TABLE.replace('group\t\t\t', 'process\t\t\t')
      .replace('id\t\t\t', 'index\t\t\t')
      .replace('group\tdataset\tid', 'process\tdataset\tindex');
    const table = parseCovarianceTable(renamed, 'covmat.csv');
    expect(table).toEqual(parseCovarianceTable(VALIDPHYS_TABLE, 'covmat.csv'));
    expect(table.points[2]).toEqual({ group: 'DIS CC', dataset: 'HERA_CC_EM-SIGMARED', id: 3 });
  });

  it('names the file and line of a bad layout, a bad number and an asymmetric matrix', () => {
    const error = (text: string) =>
      inputFileError(() => parseCovarianceTable(text, 'covmat.csv')).message;
    expect(error('a,b\n1,2\n')).toMatch(/^covmat\.csv:1: expected validphys's covariance layout/);
    expect(
      error(VALIDPHYS_TABLE.replace('group\tdataset\tid\t\t\t', 'group\tdataset\tid\t1\t\t')),
    ).toMatch(/^covmat\.csv:4: expected validphys's covariance layout/);
    expect(error(VALIDPHYS_TABLE.replace('\t0.00014\t', '\t\t'))).toMatch(
      /^covmat\.csv:6: column 2 is empty; every entry of the matrix must be given/,
    );
    expect(error(VALIDPHYS_TABLE.replace('0.00014', 'x'))).toMatch(
      /^covmat\.csv:6: column 2: 'x' is not a number/,
    );
    expect(error(VALIDPHYS_TABLE.replace('\t2e-05\t0.004', '\t3e-05\t0.004'))).toMatch(
      /^covmat\.csv:7: not symmetric: entry \(2, 1\) is 0.00003 but \(1, 2\) is 0.00002/,
    );
  });
});

describe('covarianceOnFittedData', () => {
  const table = parseCovarianceTable(VALIDPHYS_TABLE, 'covmat.csv');

  it('takes the fitted points, in the fit’s order, and zeros for datasets it does not name', () => {
    const placed = covarianceOnFittedData(table, 'covmat.csv', [
      { name: 'HERA_CC_EM-SIGMARED', pointIndices: [3] },
      { name: 'OTHER', pointIndices: [0] },
      { name: 'NMC_NC_EM-F2', pointIndices: [21] },
    ]);
    expect(Array.from(placed.data)).toEqual([0.004, 0, 2e-5, 0, 0, 0, 2e-5, 0, 0.00014]);
  });

  it('refuses a table without a fitted point or without any fitted dataset', () => {
    expect(() =>
      covarianceOnFittedData(table, 'covmat.csv', [
        { name: 'NMC_NC_EM-F2', pointIndices: [16, 17] },
      ]),
    ).toThrow(/covmat\.csv: NMC_NC_EM-F2: has no row for fitted point 17/);
    expect(() =>
      covarianceOnFittedData(table, 'covmat.csv', [{ name: 'BCDMS', pointIndices: [0] }]),
    ).toThrow(/names none of the fitted datasets/);
  });

  it('refuses a matrix that is not positive semi-definite on the fitted points', () => {
    const indefinite = {
      points: table.points,
      covariance: createMatrix(3, 3, Float64Array.of(1, 2, 0, 2, 1, 0, 0, 0, 1)),
    };
    expect(() =>
      covarianceOnFittedData(indefinite, 'covmat.csv', [
        { name: 'NMC_NC_EM-F2', pointIndices: [16, 21] },
      ]),
    ).toThrow(
      /not positive semi-definite on the fitted points: its lowest eigenvalue is -1\.000e\+0/,
    );
  });
});
