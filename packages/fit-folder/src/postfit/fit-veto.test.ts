import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { determineVetoes, type ReplicaFitInfo } from './fit-veto.js';

/** A replica that passes everything unless told otherwise. */
function replica(overrides: Partial<ReplicaFitInfo> = {}): ReplicaFitInfo {
  return {
    chi2: 1,
    positive: true,
    arcLengths: [1.3, 1.2, 3.6],
    integrability: [0.01, 0.1],
    ...overrides,
  };
}

/** Eighteen ordinary replicas, χ² 1 ± 0.01 alternating. */
function ordinary(): ReplicaFitInfo[] {
  return Array.from({ length: 18 }, (_, r) => replica({ chi2: r % 2 === 0 ? 0.99 : 1.01 }));
}

describe('determineVetoes', () => {
  it('should return upstream’s masks in upstream’s order', () => {
    const vetoes = determineVetoes([replica(), replica({ positive: false }), replica()]);
    expect([...vetoes.keys()]).toEqual([
      'Positivity',
      'IntegNumber_0',
      'IntegNumber_1',
      'ChiSquared',
      'ArcLength_0',
      'ArcLength_1',
      'ArcLength_2',
      'Total',
    ]);
    expect(vetoes.get('Positivity')).toEqual([true, false, true]);
    expect(vetoes.get('Total')).toEqual([true, false, true]);
  });

  it('should veto integrability numbers above 0.5 whatever the other replicas', () => {
    const infos = [
      replica({ integrability: [0.5, 0.1] }),
      replica({ integrability: [0.01, 0.51] }),
    ];
    const vetoes = determineVetoes(infos);
    expect(vetoes.get('IntegNumber_0')).toEqual([true, true]);
    expect(vetoes.get('IntegNumber_1')).toEqual([true, false]);
    expect(vetoes.get('Total')).toEqual([true, false]);
    expect(
      determineVetoes(infos, { chi2: 4, arcLength: 4, integrability: 0.6 }).get('Total'),
    ).toEqual([true, true]);
  });

  it('should repeat the χ² veto until no more replicas drop out', () => {
    // Round 1 (20 replicas): mean 50.98, σ 217.7, so 1000 is out (949 > 4σ) and 1.5 is in.
    // Round 2 (19 replicas): mean 1.026, σ 0.112, so 1.5 is out (0.474 > 4σ = 0.448).
    const infos = [...ordinary(), replica({ chi2: 1.5 }), replica({ chi2: 1000 })];
    const vetoes = determineVetoes(infos);
    expect(vetoes.get('Total')).toEqual([...Array<boolean>(18).fill(true), false, false]);
    expect(vetoes.get('ChiSquared')?.slice(18)).toEqual([false, false]);
    // a replica far below the mean passes: the veto is one-sided, as upstream's
    const low = determineVetoes([...ordinary(), replica({ chi2: -1000 })]);
    expect(low.get('Total')?.every(Boolean)).toBe(true);
  });

  it('should veto arc-length outliers per flavour, with the threshold asked for', () => {
    const infos = [
      ...ordinary(),
      replica({ arcLengths: [1.3, 1.2, 3.6 + 50] }),
      replica({ arcLengths: [1.3, 1.2, 3.6] }),
    ];
    const vetoes = determineVetoes(infos);
    expect(vetoes.get('ArcLength_2')?.[18]).toBe(false);
    expect(vetoes.get('Total')?.filter(Boolean)).toHaveLength(19);
    const loose = determineVetoes(infos, { chi2: 4, arcLength: 10, integrability: 0.5 });
    expect(loose.get('Total')?.every(Boolean)).toBe(true);
  });

  it('should veto a non-finite χ² without vetoing every other replica', () => {
    const vetoes = determineVetoes([...ordinary(), replica({ chi2: Number.NaN })]);
    expect(vetoes.get('Total')?.filter(Boolean)).toHaveLength(18);
    expect(vetoes.get('ChiSquared')?.[18]).toBe(false);
  });

  it('should keep the positivity mask when at most one replica passes it', () => {
    const vetoes = determineVetoes([replica({ chi2: 1e6 }), replica({ positive: false })]);
    expect(vetoes.get('ChiSquared')).toEqual([true, false]);
    expect(vetoes.get('Total')).toEqual([true, false]);
  });

  it('should refuse no replicas and replicas of different lengths', () => {
    expect(() => determineVetoes([])).toThrow(InvalidArgumentError);
    expect(() => determineVetoes([replica(), replica({ arcLengths: [1] })])).toThrow(
      'infos[1]: 1 arc lengths and 2 integrability numbers, but the first replica has 3 and 2',
    );
  });
});
