import { InvalidArgumentError, type Chi2Structure } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';

/** The first `count` replicas of a structure whose weights are per replica; shared ones unchanged. */
function firstOfStructure(structure: Chi2Structure, count: number): Chi2Structure {
  if (structure.replicas === 1) return structure;
  if (structure.kind === 'covariance') {
    return {
      ...structure,
      replicas: count,
      blocks: structure.blocks.map((block) => ({
        ...block,
        weights: block.weights.subarray(0, count * block.size * block.size),
      })),
    };
  }
  return {
    ...structure,
    replicas: count,
    blocks: structure.blocks.map((block) => ({
      ...block,
      weights: block.weights.subarray(0, count * block.modes),
    })),
  };
}

/**
 * The fit inputs of the first `count` replicas of `inputs` — the same arrays as building them for
 * those replicas alone, because every replica's pseudodata and split come from its own seeds.
 * Per-replica arrays are views (`subarray`) of the originals, not copies.
 *
 * @throws InvalidArgumentError - unless 1 ≤ count ≤ the number of replicas of `inputs`
 */
export function firstReplicas(inputs: FitInputs, count: number): FitInputs {
  const replicas = inputs.replicas.length;
  if (!Number.isInteger(count) || count < 1 || count > replicas) {
    throw new InvalidArgumentError({
      argument: 'count',
      problem: `expected an integer from 1 to ${replicas}, got ${count}`,
    });
  }
  if (count === replicas) return inputs;
  return {
    ...inputs,
    key: `${inputs.key}[:${count}]`,
    replicas: inputs.replicas.slice(0, count),
    pseudodata: inputs.pseudodata.subarray(0, count * inputs.ndata),
    training: firstOfStructure(inputs.training, count),
    validation: firstOfStructure(inputs.validation, count),
    experimental: firstOfStructure(inputs.experimental, count),
    trainingCounts: inputs.trainingCounts.subarray(0, count),
    validationCounts: inputs.validationCounts.subarray(0, count),
  };
}
