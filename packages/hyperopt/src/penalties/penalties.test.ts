import { EVOLUTION_BASIS_SIZE, evolutionIndex } from '@partonfit/core';
import { INTEGRABILITY_X_GRID } from '@partonfit/fit-folder';
import { describe, expect, it } from 'vitest';
import {
  integrabilityPenalties,
  patiencePenalty,
  SATURATION_X_GRID,
  saturationPenalties,
} from './penalties.js';

describe("n3fit's hyperopt penalties", () => {
  it('patience: the example of n3fit’s docstring', () => {
    const penalty = patiencePenalty({
      validation: 2.42,
      bestEpoch: 1000,
      epochs: 5000,
      patienceEpochs: 500,
    });
    expect(penalty).toBeCloseTo(3.434143467595683, 12);
  });

  it('saturation: 1/(|mean slope| + spread) for Σ and g against log₁₀ x', () => {
    // replica 0: Σ with slope −2 in log₁₀ x, g with slope −0.5; replica 1: flat Σ and g
    const points = SATURATION_X_GRID.length;
    const xf = new Float64Array(2 * points * EVOLUTION_BASIS_SIZE);
    SATURATION_X_GRID.forEach((x, i) => {
      const row = i * EVOLUTION_BASIS_SIZE;
      xf[row + evolutionIndex('Sigma')] = 1 - 2 * Math.log10(x);
      xf[row + evolutionIndex('g')] = 3 - 0.5 * Math.log10(x);
      xf[(points + i) * EVOLUTION_BASIS_SIZE + evolutionIndex('g')] = 4;
    });
    const [sloped, flat] = saturationPenalties(xf, 2);
    expect(sloped).toBeCloseTo(1 / (1e-7 + 2) + 1 / (1e-7 + 0.5), 6);
    expect(flat).toBeCloseTo(2e7, 0);
  });

  it('integrability: e^(sum above 0.5) − 1, capped at e^50 − 1', () => {
    const size = INTEGRABILITY_X_GRID.length * EVOLUTION_BASIS_SIZE;
    const xf = new Float64Array(3 * size);
    // replica 1: x·V = 0.7 at every small x (integrability number Σ_x |x·V| = 2.1); replica 2: huge
    INTEGRABILITY_X_GRID.forEach((_, i) => {
      xf[size + i * EVOLUTION_BASIS_SIZE + evolutionIndex('V')] = 0.7;
      xf[2 * size + i * EVOLUTION_BASIS_SIZE + evolutionIndex('V')] = 1e3;
    });
    const [none, some, capped] = integrabilityPenalties(xf, 3);
    expect(none).toBe(0);
    xf[0] = Number.NaN;
    expect(integrabilityPenalties(xf, 3)[0]).toBeNaN();
    expect(some).toBeCloseTo(Math.expm1(2.1), 12);
    expect(capped).toBeCloseTo(Math.expm1(50), -10);
  });
});
