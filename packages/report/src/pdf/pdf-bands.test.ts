import { EVOLUTION_BASIS, FLAVOUR_BASIS } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { pdfBandRows } from './pdf-bands.js';
import { replicaMean, type PdfReplicas } from './pdf-replicas.js';

const FLAVOURS = FLAVOUR_BASIS.length;
const GLUON = FLAVOUR_BASIS.findIndex((flavour) => flavour.name === 'GLUON');

/** Five replicas on two x points whose gluon is 1, 2, 3, 4, 5 (× x index + 1), the rest 0. */
function fivereplicas(): PdfReplicas {
  const xGrid = Float64Array.from([1e-3, 0.1]);
  const replicas = new Float64Array(5 * xGrid.length * FLAVOURS);
  for (let r = 0; r < 5; r++) {
    for (let a = 0; a < xGrid.length; a++) {
      replicas[(r * xGrid.length + a) * FLAVOURS + GLUON] = (r + 1) * (a + 1);
    }
  }
  return {
    label: 'five',
    kind: 'fit',
    q: 1.65,
    xGrid,
    central: replicaMean(replicas, 5),
    replicas,
    replicaCount: 5,
    notes: [],
  };
}

describe('pdfBandRows', () => {
  it('should give the mean, the 16th–84th percentiles and mean ± σ of the replicas', () => {
    const rows = pdfBandRows(fivereplicas(), 'flavour', { flavours: ['GLUON'], xMin: 0 });
    expect(rows).toHaveLength(2);
    const [first, second] = rows;
    expect(first.flavour).toBe('g');
    expect(first.central).toBeCloseTo(3, 14);
    // Sorted 1…5: position 0.16·4 = 0.64 → 1.64; 0.84·4 = 3.36 → 4.36.
    expect(first.lower68).toBeCloseTo(1.64, 14);
    expect(first.upper68).toBeCloseTo(4.36, 14);
    // Sample variance of 1…5 is 2.5.
    expect(first.lowerSigma).toBeCloseTo(3 - Math.sqrt(2.5), 14);
    expect(first.upperSigma).toBeCloseTo(3 + Math.sqrt(2.5), 14);
    expect(second.central).toBeCloseTo(6, 14);
    expect(second.upper68).toBeCloseTo(8.72, 14);
  });

  it('should rotate to the evolution basis, where Σ holds no gluon and g is the gluon', () => {
    const rows = pdfBandRows(fivereplicas(), 'evolution', { flavours: ['Sigma', 'g'], xMin: 0 });
    expect(rows.map((row) => [row.flavour, row.central])).toEqual([
      [EVOLUTION_BASIS[1].label, 0],
      [EVOLUTION_BASIS[1].label, 0],
      ['g', 3],
      ['g', 6],
    ]);
  });

  it('should divide by the reference set’s central value for a ratio', () => {
    const pdf = fivereplicas();
    const rows = pdfBandRows(pdf, 'flavour', { flavours: ['GLUON'], xMin: 0, reference: pdf });
    expect(rows.map((row) => row.central)).toEqual([1, 1]);
    expect(rows[0].lower68).toBeCloseTo(1.64 / 3, 14);
  });

  it('should draw no band for a single PDF and skip x below xMin', () => {
    const pdf = { ...fivereplicas(), replicas: new Float64Array(), replicaCount: 0 };
    const rows = pdfBandRows(pdf, 'flavour', { flavours: ['GLUON'], xMin: 0.01 });
    expect(rows).toEqual([
      {
        set: 'five',
        flavour: 'g',
        x: 0.1,
        central: 6,
        band: false,
        lower68: null,
        upper68: null,
        lowerSigma: null,
        upperSigma: null,
      },
    ]);
  });

  it('should refuse a flavour the basis does not have', () => {
    expect(() => pdfBandRows(fivereplicas(), 'evolution', { flavours: ['GLUON'] })).toThrow(
      /no flavour GLUON in the evolution basis/,
    );
  });
});
