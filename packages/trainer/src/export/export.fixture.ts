import { EVOLUTION_BASIS_SIZE, type Runcard } from '@partonfit/core';
import { gaussIntegrationGrid } from '@partonfit/layers';
import { ReplicaPdfModel } from '../model/pdf-model.js';
import { smallClosureRuncard } from '../training/training.fixture.js';

/** x points spanning the fit range, with both ends: 1e-9 … 1, (x). */
export const TEST_X = Float64Array.from([
  1e-9, 3e-7, 1e-5, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.8, 0.99, 1,
]);

/** The closure runcard with another network or fit basis. */
export async function variantRuncard(
  parameters: Partial<Runcard['parameters']> = {},
  fitting: Partial<Runcard['fitting']> = {},
): Promise<Runcard> {
  const runcard = await smallClosureRuncard({ epochs: 1 });
  return {
    ...runcard,
    parameters: { ...runcard.parameters, ...parameters },
    fitting: { ...runcard.fitting, ...fitting },
  };
}

/** A freshly initialised multi-replica model of `runcard` (integration grid as in training). */
export function multiReplicaModel(runcard: Runcard, replicas: readonly number[]): ReplicaPdfModel {
  return new ReplicaPdfModel(runcard, replicas, TEST_X, gaussIntegrationGrid(100));
}

/**
 * The largest difference between two PDFs `(x, 14)`, each flavour's difference divided by that
 * flavour's largest magnitude (so that values near a zero crossing are judged on the flavour's
 * scale).
 */
export function largestScaledDifference(actual: ArrayLike<number>, expected: ArrayLike<number>) {
  const points = expected.length / EVOLUTION_BASIS_SIZE;
  let largest = 0;
  for (let f = 0; f < EVOLUTION_BASIS_SIZE; f++) {
    let scale = 0;
    for (let p = 0; p < points; p++) {
      scale = Math.max(scale, Math.abs(expected[p * EVOLUTION_BASIS_SIZE + f]));
    }
    for (let p = 0; p < points; p++) {
      const index = p * EVOLUTION_BASIS_SIZE + f;
      const difference = Math.abs(actual[index] - expected[index]);
      if (difference > 0) largest = Math.max(largest, difference / scale);
    }
  }
  return largest;
}
