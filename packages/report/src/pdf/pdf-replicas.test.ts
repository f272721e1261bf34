import { join } from 'node:path';
import { FLAVOUR_BASIS } from '@partonfit/core';
import { EXPORT_X_GRID } from '@partonfit/fit-folder';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { describe, expect, it } from 'vitest';
import { lhapdfPdfReplicas } from './pdf-replicas.js';

const NNPDF40 = 'lhapdf/NNPDF40_nnlo_as_01180';
const GLUON = FLAVOUR_BASIS.findIndex((flavour) => flavour.name === 'GLUON');

describe.skipIf(!hasSharedData(NNPDF40, 'an LHAPDF set to compare with'))(
  'lhapdfPdfReplicas',
  () => {
    it('should take member 0 and the replicas present, and say what it extrapolates', async () => {
      const set = await lhapdfPdfReplicas(join(SHARED_DATA, NNPDF40), EXPORT_X_GRID, Math.SQRT2);
      expect(set.label).toBe('NNPDF40_nnlo_as_01180');
      expect(set.replicaCount).toBe(1);
      expect(set.notes).toEqual([
        'member 0 and 1 of 100 replica members',
        'fewer than 2 replicas: no uncertainty band',
        "Q = 1.414 GeV is below the set's QMin = 1.65 GeV: extrapolated",
      ]);
      expect(set.central).toHaveLength(EXPORT_X_GRID.length * FLAVOUR_BASIS.length);
      expect(set.replicas).toHaveLength(set.central.length);
      // At Q0 = 1.65 GeV nothing is extrapolated (the grid's x starts at 1e-9 as the exportgrid's).
      const atQ0 = await lhapdfPdfReplicas(join(SHARED_DATA, NNPDF40), EXPORT_X_GRID, 1.65);
      expect(atQ0.notes).toHaveLength(2);
      expect(atQ0.central[GLUON]).not.toBe(set.central[GLUON]);
    });
  },
);
