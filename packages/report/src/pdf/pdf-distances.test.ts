import { FLAVOUR_BASIS } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { pdfDistanceRows } from './pdf-distances.js';
import { replicaMean, type PdfReplicas } from './pdf-replicas.js';

const FLAVOURS = FLAVOUR_BASIS.length;
const GLUON = FLAVOUR_BASIS.findIndex((flavour) => flavour.name === 'GLUON');

/** A set of replicas on one x point whose gluon takes `values`, every other flavour 0. */
function gluonReplicas(label: string, values: readonly number[]): PdfReplicas {
  const replicas = new Float64Array(values.length * FLAVOURS);
  values.forEach((value, r) => (replicas[r * FLAVOURS + GLUON] = value));
  return {
    label,
    kind: 'fit',
    q: 1.65,
    xGrid: Float64Array.from([0.1]),
    central: replicaMean(replicas, values.length),
    replicas,
    replicaCount: values.length,
    notes: [],
  };
}

describe('pdfDistanceRows', () => {
  it('should give NNPDF’s distances between central values and between uncertainties', () => {
    const reference = gluonReplicas('a', [1, 2, 3, 4, 5]);
    // Means 5 and 3, variances 2.5 each: 2 / √(2.5/5 + 2.5/5) = 2, and no uncertainty distance.
    const shifted = pdfDistanceRows(gluonReplicas('b', [3, 4, 5, 6, 7]), reference, 'flavour');
    const gluon = shifted.find((row) => row.flavour === 'g');
    expect(gluon?.central).toBeCloseTo(2, 14);
    expect(gluon?.uncertainty).toBe(0);
    // Variances 2 and 2.5; fourth moments 6.4 and 6.8, so Var[σ²] = (m₄ − σ⁴/2)/5: 0.88, 0.735.
    const narrower = pdfDistanceRows(gluonReplicas('c', [1, 3, 3, 3, 5]), reference, 'flavour');
    const row = narrower.find((entry) => entry.flavour === 'g');
    expect(row?.central).toBe(0);
    expect(row?.uncertainty).toBeCloseTo(0.5 / Math.sqrt(0.88 + 0.735), 14);
    // Flavours without spread in either set have no distance.
    expect(narrower.find((entry) => entry.flavour === 'u')?.central).toBeNull();
  });

  it('should refuse a set with a single replica', () => {
    expect(() =>
      pdfDistanceRows(gluonReplicas('one', [1]), gluonReplicas('a', [1, 2]), 'flavour'),
    ).toThrow(/two replicas or more: one has 1, a 2/);
  });
});
