import {
  EVOLUTION_BASIS,
  EVOLUTION_BASIS_SIZE,
  FLAVOUR_TO_EVOLUTION,
  InvalidArgumentError,
  SeededRandom,
  ShapeError,
  evolutionIndex,
  rotateFlavours,
  type EvolutionFlavour,
} from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { hasSharedData } from '@partonfit/testing/shared-data';
import { EXPORT_X_GRID } from './export-x-grid.js';
import {
  EXPORT_GRID_LABELS,
  evolutionToExportFlavours,
  exportGridText,
  formatExportGrid,
} from './exportgrid.js';
import {
  flattenRows,
  readReferenceExportGrid,
  REFERENCE_EXPORT_GRID,
} from './fit-folder.fixture.js';

const POINTS = EXPORT_X_GRID.length;
const FLAVOURS = EVOLUTION_BASIS_SIZE;
const hasReference = hasSharedData(REFERENCE_EXPORT_GRID, 'exportgrid against upstream');

interface ParsedExportGrid {
  labels: string[];
  pdfgrid: number[][];
  q20: number;
  replica: number;
  xgrid: number[];
}

/** A flavour-basis grid with every parton non-zero, (x, flavour). */
function randomFlavourGrid(seed: number): Float64Array {
  const random = new SeededRandom(seed);
  return Float64Array.from({ length: POINTS * FLAVOURS }, () => random.uniformBetween(-1, 1));
}

function column(grid: ArrayLike<number>, flavour: number): number[] {
  return Array.from({ length: POINTS }, (_, ix) => grid[ix * FLAVOURS + flavour]);
}

function labelIndex(name: string): number {
  return EXPORT_GRID_LABELS.indexOf(name);
}

describe('exportGridText', () => {
  it('should round-trip a flavour-basis grid through the evolution basis and YAML', () => {
    const flavourGrid = randomFlavourGrid(7);
    const xfEvolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, flavourGrid);
    // Q0 above the top threshold: all six quarks active, nothing zeroed
    const text = exportGridText({ replica: 3, q0: 200, xfEvolution });
    const parsed = parse(text) as ParsedExportGrid;
    expect(Object.keys(parsed)).toEqual(['labels', 'pdfgrid', 'q20', 'replica', 'xgrid']);
    expect(parsed.labels).toEqual([...EXPORT_GRID_LABELS]);
    expect(parsed.replica).toBe(3);
    expect(parsed.q20).toBe(40000);
    expect(parsed.xgrid).toEqual(Array.from(EXPORT_X_GRID));
    expect(parsed.pdfgrid).toHaveLength(POINTS);
    const written = flattenRows(parsed.pdfgrid);
    expect(written).toHaveLength(POINTS * FLAVOURS);
    written.forEach((value, index) => {
      expect(value).toBeCloseTo(flavourGrid[index], 14);
    });
  });

  it('should write u = Σ/12 + T3/4 + T8/12 + T15/24 + T24/40 + T35/60 + the same with V', () => {
    const uCoefficients: Partial<Record<EvolutionFlavour, number>> = {
      Sigma: 1 / 12,
      V: 1 / 12,
      T3: 1 / 4,
      V3: 1 / 4,
      T8: 1 / 12,
      V8: 1 / 12,
      T15: 1 / 24,
      V15: 1 / 24,
      T24: 1 / 40,
      V24: 1 / 40,
      T35: 1 / 60,
      V35: 1 / 60,
    };
    for (const { name } of EVOLUTION_BASIS) {
      const flavour = evolutionIndex(name as EvolutionFlavour);
      const unit = new Float64Array(POINTS * FLAVOURS);
      for (let ix = 0; ix < POINTS; ix++) unit[ix * FLAVOURS + flavour] = 1;
      const lha = evolutionToExportFlavours(unit, 200);
      const expected = uCoefficients[name as EvolutionFlavour] ?? 0;
      for (const value of column(lha, labelIndex('U'))) expect(value).toBeCloseTo(expected, 15);
    }
  });

  it('should invert FLAVOUR_TO_EVOLUTION exactly when all quarks are active', () => {
    const xfEvolution = randomFlavourGrid(11);
    const lha = evolutionToExportFlavours(xfEvolution, 200);
    const back = rotateFlavours(FLAVOUR_TO_EVOLUTION, lha);
    back.forEach((value, index) => {
      expect(value).toBeCloseTo(xfEvolution[index], 14);
    });
  });

  it('should zero b and t at Q0 = 1.65 GeV with theory 200, and keep c', () => {
    const flavourGrid = randomFlavourGrid(13);
    const xfEvolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, flavourGrid);
    const lha = flattenRows(
      (parse(exportGridText({ replica: 1, q0: 1.65, xfEvolution })) as ParsedExportGrid).pdfgrid,
    );
    for (const name of ['B', 'BBAR', 'T', 'TBAR']) {
      expect(column(lha, labelIndex(name)).every((value) => value === 0)).toBe(true);
    }
    for (const name of ['C', 'CBAR', 'U', 'DBAR', 'S', 'GLUON', 'PHT']) {
      const index = labelIndex(name);
      column(lha, index).forEach((value, ix) => {
        expect(value).toBeCloseTo(flavourGrid[ix * FLAVOURS + index], 14);
      });
    }
  });

  it('should zero charm too below its threshold without intrinsic charm', () => {
    const xfEvolution = randomFlavourGrid(17);
    const lha = evolutionToExportFlavours(xfEvolution, 1.4, { intrinsicCharm: false });
    const allActive = evolutionToExportFlavours(xfEvolution, 200);
    EXPORT_GRID_LABELS.forEach((name, flavour) => {
      const heavy = ['C', 'CBAR', 'B', 'BBAR', 'T', 'TBAR'].includes(name);
      expect(column(lha, flavour)).toEqual(
        heavy ? new Array<number>(POINTS).fill(0) : column(allActive, flavour),
      );
    });
  });

  it('should write numbers that YAML 1.1 parsers (PyYAML) also read as floats', () => {
    const xfEvolution = randomFlavourGrid(19);
    const text = exportGridText({ replica: 1, q0: 1.65, xfEvolution });
    const parsed = parse(text, { version: '1.1' }) as ParsedExportGrid;
    expect(parsed.xgrid[0]).toBe(1e-9);
    expect(parsed.xgrid.every((x) => typeof x === 'number')).toBe(true);
    expect(parsed.pdfgrid.flat().every((value) => typeof value === 'number')).toBe(true);
  });

  it('should reject a grid of the wrong shape', () => {
    const xfEvolution = new Float64Array((POINTS - 1) * FLAVOURS);
    expect(() => exportGridText({ replica: 1, q0: 1.65, xfEvolution })).toThrow(ShapeError);
  });

  it('should name the x index and flavour of a non-finite value', () => {
    const xfEvolution = new Float64Array(POINTS * FLAVOURS);
    xfEvolution[5 * FLAVOURS + 2] = Number.NaN;
    expect(() => exportGridText({ replica: 1, q0: 1.65, xfEvolution })).toThrow(
      /x index 5, flavour 2/,
    );
  });

  it('should reject a replica number below 1 and a bad Q0', () => {
    const xfEvolution = new Float64Array(POINTS * FLAVOURS);
    expect(() => exportGridText({ replica: 0, q0: 1.65, xfEvolution })).toThrow(
      InvalidArgumentError,
    );
    expect(() => exportGridText({ replica: 1.5, q0: 1.65, xfEvolution })).toThrow(
      InvalidArgumentError,
    );
    expect(() => exportGridText({ replica: 1, q0: -1, xfEvolution })).toThrow(InvalidArgumentError);
  });
});

describe('formatExportGrid', () => {
  it('should write replica 0 (postfit’s average) but no negative replica number', () => {
    const grid = { q20: 2, xGrid: Float64Array.of(0.5), pdfGrid: new Float64Array(FLAVOURS) };
    expect(formatExportGrid({ ...grid, replica: 0 })).toContain('\nreplica: 0\n');
    expect(() => formatExportGrid({ ...grid, replica: -1 })).toThrow(
      'expected a replica number (0 for the replica average, fitted replicas from 1), got -1',
    );
  });

  it('should wrap flow sequences after 80 columns with two-space continuation lines', () => {
    const text = formatExportGrid({
      replica: 2,
      q20: 2.7225,
      xGrid: Float64Array.from([0.1, 0.2]),
      pdfGrid: Float64Array.from({ length: 28 }, (_, index) => index / 7),
    });
    expect(text).toBe(
      [
        'labels: [TBAR, BBAR, CBAR, SBAR, UBAR, DBAR, GLUON, D, U, S, C, B, T, PHT]',
        'pdfgrid:',
        '- [0.0, 0.14285714285714285, 0.2857142857142857, 0.42857142857142855, 0.5714285714285714,',
        '  0.7142857142857143, 0.8571428571428571, 1.0, 1.1428571428571428, 1.2857142857142858,',
        '  1.4285714285714286, 1.5714285714285714, 1.7142857142857142, 1.8571428571428572]',
        '- [2.0, 2.142857142857143, 2.2857142857142856, 2.4285714285714284, 2.5714285714285716,',
        '  2.7142857142857144, 2.857142857142857, 3.0, 3.142857142857143, 3.2857142857142856,',
        '  3.4285714285714284, 3.5714285714285716, 3.7142857142857144, 3.857142857142857]',
        'q20: 2.7225',
        'replica: 2',
        'xgrid: [0.1, 0.2]',
        '',
      ].join('\n'),
    );
  });

  describe.skipIf(!hasReference)('against upstream n3fit output', () => {
    it('should reproduce quickcard_1.exportgrid from its own numbers', () => {
      const reference = readReferenceExportGrid();
      const text = formatExportGrid({
        replica: reference.replica,
        q20: reference.q20,
        xGrid: Float64Array.from(reference.xgrid),
        pdfGrid: flattenRows(reference.pdfgrid),
      });
      // byte for byte up to the xgrid, whose first number we write as 1.0e-09 (upstream: 1e-09),
      // which moves its line breaks; its numbers are otherwise written identically
      const [head, xgrid = ''] = text.split('\nxgrid: ');
      const [referenceHead, referenceXgrid = ''] = reference.text.split('\nxgrid: ');
      expect(head).toBe(referenceHead);
      const items = (list: string) => list.replace(/[[\]\n]/g, '').split(/, */);
      expect(items(xgrid)).toEqual(['1.0e-09', ...items(referenceXgrid).slice(1)]);
      expect(items(referenceXgrid)[0]).toBe('1e-09');
    });

    it('should write the reference replica with the same structure and numbers', () => {
      const reference = readReferenceExportGrid();
      const xfEvolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, flattenRows(reference.pdfgrid));
      const text = exportGridText({ replica: 1, q0: 1.65, xfEvolution });
      const parsed = parse(text) as ParsedExportGrid;
      expect(Object.keys(parsed)).toEqual(reference.keys);
      expect(parsed.labels).toEqual(reference.labels);
      expect(parsed.q20).toBe(reference.q20);
      expect(parsed.replica).toBe(reference.replica);
      expect(parsed.xgrid).toEqual(reference.xgrid);
      expect(parsed.pdfgrid).toHaveLength(reference.pdfgrid.length);
      parsed.pdfgrid.forEach((row, ix) => {
        expect(row).toHaveLength(14);
        row.forEach((value, flavour) => {
          expect(value).toBeCloseTo(reference.pdfgrid[ix][flavour], 14);
        });
      });
    });
  });
});
