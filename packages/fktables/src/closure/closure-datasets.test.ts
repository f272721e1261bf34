import {
  cholesky,
  createMatrix,
  FIT_BASES,
  FLAVOUR_BASIS,
  fitBasisToEvolution,
  InvalidArgumentError,
  symmetricEigen,
  type LhaFlavour,
} from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { chi2 } from '../bundle/chi2.js';
import { bundleAsCommonData } from '../fit-inputs/bundle-commondata.js';
import { xGridUnion } from '../fit-inputs/x-grid-union.js';
import type { DisFkTable } from '../fktable/fk-table.js';
import { createObservable } from '../fktable/observable.js';
import { predictFkTable, predictObservable } from '../fktable/predict.js';
import {
  CLOSURE_DATASET_SPECS,
  closureDatasets,
  closurePositivity,
  closureXPoints,
  type ClosureDataset,
} from './closure-datasets.js';
import { evolutionCoefficients } from './lo-fk-table.js';
import { toyPdfFlavourXf, toyPdfXf } from './toy-pdf.js';

const LEVEL0 = closureDatasets();
const TOTAL_POINTS = LEVEL0.reduce((sum, dataset) => sum + dataset.data.length, 0);

/** The partons of the toy PDF at one point, by flavour name. */
type Partons = Record<LhaFlavour, number>;

function partonsAt(x: Float64Array): Partons[] {
  const xf = toyPdfFlavourXf(x);
  return Array.from(
    x,
    (_, n) =>
      Object.fromEntries(
        FLAVOUR_BASIS.map((member, q) => [member.name, xf[n * 14 + q]]),
      ) as Partons,
  );
}

/** The LO parton-model formulas, written out here independently of `lo-dis.ts`. */
const LO_FORMULAS: Record<string, (p: Partons) => number> = {
  CLOSURE_F2P: (p) =>
    (4 / 9) * (p.U + p.UBAR + p.C + p.CBAR) + (1 / 9) * (p.D + p.DBAR + p.S + p.SBAR),
  CLOSURE_F2D: (p) => {
    const proton = (4 / 9) * (p.U + p.UBAR) + (1 / 9) * (p.D + p.DBAR);
    const neutron = (4 / 9) * (p.D + p.DBAR) + (1 / 9) * (p.U + p.UBAR);
    return (proton + neutron) / 2 + (1 / 9) * (p.S + p.SBAR) + (4 / 9) * (p.C + p.CBAR);
  },
  CLOSURE_NU_F2: (p) => 2 * (p.D + p.S + p.UBAR + p.CBAR),
  CLOSURE_NU_XF3: (p) => 2 * (p.D + p.S - p.UBAR - p.CBAR),
  CLOSURE_NUB_F2: (p) => 2 * (p.U + p.C + p.DBAR + p.SBAR),
  CLOSURE_NUB_XF3: (p) => 2 * (p.U + p.C - p.DBAR - p.SBAR),
  CLOSURE_NU_DIMUON: (p) => 2 * p.S,
  CLOSURE_NUB_DIMUON: (p) => 2 * p.SBAR,
  CLOSURE_F2C: (p) => (4 / 9) * (p.C + p.CBAR),
  CLOSURE_XG: (p) => p.GLUON,
};

/**
 * The scale interpolation errors are measured against: where the observable vanishes or changes
 * sign, the quantity its uncertainty refers to.
 */
const ERROR_SCALE: Record<string, string> = {
  CLOSURE_NU_XF3: 'CLOSURE_NU_F2',
  CLOSURE_NUB_XF3: 'CLOSURE_NUB_F2',
  CLOSURE_NU_DIMUON: 'CLOSURE_NU_F2',
  CLOSURE_NUB_DIMUON: 'CLOSURE_NUB_F2',
  CLOSURE_F2C: 'CLOSURE_F2P',
};

function checkValidTable(table: DisFkTable): void {
  const nx = table.xGrid.length;
  expect(table.hadronic).toBe(false);
  expect(table.file).toBe('<generated>');
  expect(table.q0).toBeCloseTo(Math.SQRT2, 15);
  expect(table.values).toHaveLength(table.ndata * table.channels.length * nx);
  expect(table.values.every(Number.isFinite)).toBe(true);
  table.channels.forEach((flavour, c) => {
    expect(Number.isInteger(flavour) && flavour >= 0 && flavour < 14).toBe(true);
    if (c > 0) expect(flavour).toBeGreaterThan(table.channels[c - 1]);
  });
  expect(table.xGrid.every((x, a) => x > 0 && x < 1 && (a === 0 || x > table.xGrid[a - 1]))).toBe(
    true,
  );
}

function level1Chi2(seed: number): number {
  return closureDatasets({ level: 1, seed }).reduce(
    (sum, dataset) => sum + chi2(dataset.data, dataset.toyPredictions, dataset.covariance),
    0,
  );
}

describe('closureDatasets', () => {
  it('should generate the ten datasets, 174 points over x ∈ [1e-4, 0.8] (dimuon [0.01, 0.4]), on one shared x-grid', () => {
    expect(LEVEL0.map((dataset) => dataset.name)).toEqual(Object.keys(LO_FORMULAS));
    expect(TOTAL_POINTS).toBe(174);
    for (const dataset of LEVEL0) {
      const [xMin, xMax] = dataset.name.endsWith('_DIMUON') ? [0.01, 0.4] : [1e-4, 0.8];
      expect(dataset.file).toBe('<generated>');
      expect(dataset.fkTable.name).toBe(dataset.name);
      expect(dataset.fkTable.xGrid).toBe(LEVEL0[0].fkTable.xGrid);
      expect(dataset.x[0]).toBeCloseTo(xMin, 15);
      expect(dataset.x[dataset.x.length - 1]).toBeCloseTo(xMax, 15);
      checkValidTable(dataset.fkTable);
    }
    expect(LEVEL0[0].fkTable.xGrid).toHaveLength(50);
  });

  it('should predict, with the toy PDF, the exact LO formulas at the data points to 1.1e-4 of their scale', () => {
    for (const dataset of LEVEL0) {
      const partons = partonsAt(dataset.x);
      const exact = partons.map(LO_FORMULAS[dataset.name]);
      const scale = partons.map(LO_FORMULAS[ERROR_SCALE[dataset.name] ?? dataset.name]);
      const predictions = predictFkTable(dataset.fkTable, toyPdfXf(dataset.fkTable.xGrid));
      predictions.forEach((prediction, n) => {
        const difference = Math.abs(prediction - exact[n]);
        expect(difference).toBeLessThanOrEqual(1.1e-4 * Math.abs(scale[n]));
        // far below the uncertainty: under 0.25 % of σ_n (the dimuon sets reach 0.18 %)
        const sigma = Math.sqrt(dataset.covariance.data[n * dataset.data.length + n]);
        expect(difference).toBeLessThan(0.0025 * sigma);
      });
    }
  });

  it('should constrain all eight fitted flavours of the EVOL basis', () => {
    const rotation = fitBasisToEvolution(FIT_BASES.EVOL);
    const rows = CLOSURE_DATASET_SPECS.map((spec) => {
      const coefficients = evolutionCoefficients(spec.combination);
      return Array.from({ length: 8 }, (_, k) =>
        coefficients.reduce((sum, value, c) => sum + value * rotation.data[c * 8 + k], 0),
      );
    });
    const gram = createMatrix(8, 8);
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < 8; j++) {
        gram.data[i * 8 + j] = rows.reduce((sum, row) => sum + row[i] * row[j], 0);
      }
    }
    const { values } = symmetricEigen(gram);
    expect(values[0]).toBeGreaterThan(1e-6 * values[7]);
    // LO DIS does not see the gluon: only the PDF values of CLOSURE_XG do
    const gluon = FIT_BASES.EVOL.flavours.indexOf('g');
    rows.forEach((row, k) => {
      expect(row[gluon] !== 0).toBe(CLOSURE_DATASET_SPECS[k].name === 'CLOSURE_XG');
    });
  });

  it('should have level-0 data equal to the toy PDF’s predictions, so its χ² is 0', () => {
    for (const dataset of LEVEL0) {
      const predictions = predictFkTable(dataset.fkTable, toyPdfXf(dataset.fkTable.xGrid));
      expect(Array.from(dataset.data)).toEqual(Array.from(predictions));
      expect(Array.from(dataset.toyPredictions)).toEqual(Array.from(predictions));
      expect(chi2(dataset.data, predictions, dataset.covariance)).toBe(0);
    }
  });

  it('should build symmetric positive-definite covariances from the stated uncertainties', () => {
    LEVEL0.forEach((dataset, k) => {
      const spec = CLOSURE_DATASET_SPECS[k];
      const n = dataset.data.length;
      const { data } = dataset.covariance;
      expect(dataset.covariance.rows).toBe(n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < i; j++) expect(data[i * n + j]).toBe(data[j * n + i]);
      }
      expect(() => cholesky(dataset.covariance)).not.toThrow();
      const partons = partonsAt(dataset.x);
      const value = LO_FORMULAS[dataset.name](partons[0]);
      const reference = LO_FORMULAS[ERROR_SCALE[dataset.name] ?? dataset.name](partons[0]);
      expect(data[0]).toBeCloseTo(
        (spec.uncorrelated * reference) ** 2 + (spec.normalisation * value) ** 2,
        12,
      );
      expect(data[1]).toBeCloseTo(
        spec.normalisation ** 2 * value * LO_FORMULAS[dataset.name](partons[1]),
        12,
      );
    });
  });

  it('should reproduce level-1 data for a seed, and draw other data for another seed', () => {
    const first = closureDatasets({ level: 1, seed: 5 });
    const again = closureDatasets({ level: 1, seed: 5 });
    const other = closureDatasets({ level: 1, seed: 6 });
    first.forEach((dataset, k) => {
      expect(Array.from(again[k].data)).toEqual(Array.from(dataset.data));
      expect(Array.from(other[k].data)).not.toEqual(Array.from(dataset.data));
      expect(Array.from(dataset.toyPredictions)).toEqual(Array.from(LEVEL0[k].toyPredictions));
      expect(Array.from(dataset.covariance.data)).toEqual(Array.from(LEVEL0[k].covariance.data));
    });
  });

  it('should give the toy PDF χ²/n ≈ 1 at level 1', () => {
    // χ² of n = 174 standard normals: mean n, standard deviation √(2n) ≈ 18.7
    const single = level1Chi2(1) / TOTAL_POINTS;
    expect(Math.abs(single - 1)).toBeLessThan(4 * Math.sqrt(2 / TOTAL_POINTS));
    const seeds = Array.from({ length: 20 }, (_, i) => i + 100);
    const mean = seeds.reduce((sum, seed) => sum + level1Chi2(seed), 0) / seeds.length;
    expect(Math.abs(mean / TOTAL_POINTS - 1)).toBeLessThan(
      3 * Math.sqrt(2 / (TOTAL_POINTS * seeds.length)),
    );
  });

  it('should work downstream as bundles: commondata, observables and predictions', () => {
    for (const dataset of LEVEL0 as readonly ClosureDataset[]) {
      const commonData = bundleAsCommonData(dataset);
      expect(commonData.ndata).toBe(dataset.data.length);
      const observable = createObservable(dataset.name, 'NULL', [[dataset.fkTable]]);
      expect(Array.from(predictObservable(observable, toyPdfXf))).toEqual(
        Array.from(dataset.toyPredictions),
      );
    }
    const tables = [...LEVEL0.map((dataset) => dataset.fkTable), ...closurePositivity()];
    expect(xGridUnion(tables).xGrid).toHaveLength(50);
  });

  it('should reject a level other than 0 or 1 and a seed outside 32 bits', () => {
    expect(() => closureDatasets({ level: 2 as 0 })).toThrow('level: expected 0 or 1, got 2');
    expect(() => closureDatasets({ level: 1, seed: -1 })).toThrow(InvalidArgumentError);
    expect(() => closureDatasets({ level: 1, seed: 2 ** 32 })).toThrow(
      'seed: expected an integer between 0 and 4294967295, got 4294967296',
    );
  });
});

describe('closurePositivity', () => {
  it('should give x·ū, x·d̄, x·s̄ and x·g at 20 points over [1e-5, 0.9], positive for the toy PDF', () => {
    const tables = closurePositivity();
    expect(tables.map((table) => table.name)).toEqual([
      'CLOSURE_POS_XUB',
      'CLOSURE_POS_XDB',
      'CLOSURE_POS_XSB',
      'CLOSURE_POS_XG',
    ]);
    const x = closureXPoints(20, 1e-5, 0.9);
    const partons = partonsAt(x);
    const flavours: LhaFlavour[] = ['UBAR', 'DBAR', 'SBAR', 'GLUON'];
    tables.forEach((table, k) => {
      checkValidTable(table);
      expect(table.ndata).toBe(20);
      const predictions = predictFkTable(table, toyPdfXf(table.xGrid));
      predictions.forEach((prediction, n) => {
        expect(prediction).toBeGreaterThan(0);
        expect(Math.abs(prediction / partons[n][flavours[k]] - 1)).toBeLessThan(3e-4);
      });
    });
  });
});

describe('closureXPoints', () => {
  it('should space 60 % of the points logarithmically below 0.1 and the rest linearly above', () => {
    const x = closureXPoints(10, 1e-4, 0.8);
    expect(x[0]).toBeCloseTo(1e-4, 15);
    expect(x[1] / x[0]).toBeCloseTo(x[2] / x[1], 12);
    expect(x[6]).toBeCloseTo(0.1, 15);
    expect(x[9]).toBeCloseTo(0.8, 15);
    expect(x[9] - x[8]).toBeCloseTo(x[7] - x[6], 12);
    expect(() => closureXPoints(3, 1e-4, 0.8)).toThrow(
      'count: expected an integer of at least 4, got 3',
    );
    expect(() => closureXPoints(10, 0.2, 0.8)).toThrow(InvalidArgumentError);
  });
});
