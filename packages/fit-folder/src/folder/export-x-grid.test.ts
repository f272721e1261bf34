import { loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { EXPORT_X_GRID, EXPORT_X_GRID_SIZE } from './export-x-grid.js';
import { readReferenceExportGrid, REFERENCE_EXPORT_GRID } from './fit-folder.fixture.js';

const NNPDF40 = 'lhapdf/NNPDF40_nnlo_as_01180/';
const hasReference = hasSharedData(REFERENCE_EXPORT_GRID, 'the export x grid against upstream');
const hasLhapdf = hasSharedData(NNPDF40, 'the export x grid against NNPDF4.0 knots');

describe('EXPORT_X_GRID', () => {
  it('should hold 196 increasing points from 1e-9 to 1', () => {
    expect(EXPORT_X_GRID_SIZE).toBe(196);
    expect(EXPORT_X_GRID[0]).toBe(1e-9);
    expect(EXPORT_X_GRID[195]).toBe(1);
    for (let ix = 1; ix < EXPORT_X_GRID.length; ix++) {
      expect(EXPORT_X_GRID[ix]).toBeGreaterThan(EXPORT_X_GRID[ix - 1]);
    }
  });

  describe.skipIf(!hasReference)('against upstream n3fit output', () => {
    it('should equal the xgrid of quickcard_1.exportgrid number for number', () => {
      expect(Array.from(EXPORT_X_GRID)).toEqual(readReferenceExportGrid().xgrid);
    });
  });

  describe.skipIf(!hasLhapdf)('against the NNPDF4.0 LHAPDF set', () => {
    it('should equal the x knots of member 0 to their 8 printed digits', async () => {
      const set = await loadLhapdfSet(SHARED_DATA + NNPDF40);
      const member = await loadLhapdfMember(set, 0);
      expect(member.xKnots).toHaveLength(EXPORT_X_GRID.length);
      member.xKnots.forEach((knot, ix) => {
        expect(Math.abs(knot / EXPORT_X_GRID[ix] - 1)).toBeLessThan(5e-8);
      });
    });
  });
});
