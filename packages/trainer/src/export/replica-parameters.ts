import { EVOLUTION_BASIS_SIZE, replicaParameters, type Runcard } from '@partonfit/core';
import { NETWORK_INPUTS, type ActivationName, type PreprocessingFlavour } from '@partonfit/layers';

/** What a single replica's PDF is built of: the runcard's network and fit basis. */
export interface ReplicaArchitecture {
  /** Output units of each dense layer (`parameters.nodes_per_layer`), e.g. `[25, 20, 8]`. */
  readonly units: readonly number[];
  /** The activation of each layer (`parameters.activation_per_layer`). */
  readonly activations: readonly ActivationName[];
  /** The fit basis (`fitting.fitbasis`), e.g. `EVOL`. */
  readonly fitBasis: string;
  /** The fitted flavours in network-output order, with their ranges (`fitting.basis`). */
  readonly flavours: readonly PreprocessingFlavour[];
}

/** One weight of one replica, float32 in C order. */
export interface ReplicaWeight {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

/**
 * Everything that fixes one replica's PDF: its architecture, its weights and its frozen
 * sum-rule normalisation.
 */
export interface ReplicaParameters {
  readonly architecture: ReplicaArchitecture;
  /**
   * The weights under the multi-replica model's stable names (`ReplicaPdfModel.namedWeights`),
   * each the replica's slice `weight[r]` of the multi-replica weight (see
   * {@link replicaWeightShapes}).
   */
  readonly weights: ReadonlyMap<string, ReplicaWeight>;
  /**
   * The sum-rule factors A, `(flavour)` = (14) in the evolution basis order
   * `[γ, Σ, g, V, V3, V8, V15, V24, V35, T3, T8, T15, T24, T35]`, 1 for flavours without a sum
   * rule: computed once from the trained replica on its integration grid and frozen.
   */
  readonly normalisation: Float32Array;
}

/**
 * The architecture a runcard gives replica `replica`: its own network when the replicas have
 * their own hyperparameters (`replicaParameters`), else every replica's.
 *
 * @param replica - the replica number, from 1
 */
export function replicaArchitecture(runcard: Runcard, replica = 1): ReplicaArchitecture {
  const parameters = replicaParameters(runcard, replica);
  return {
    units: parameters.nodes_per_layer,
    activations: parameters.activation_per_layer,
    fitBasis: runcard.fitting.fitbasis,
    flavours: runcard.fitting.basis,
  };
}

/**
 * The names and shapes of one replica's weights, in the multi-replica model's order: for each
 * layer l, `network/kernel_<l>` `(in, out)` and `network/bias_<l>` `(1, out)` (the first layer's
 * input being `[x, log x]`), then for each fitted flavour `preprocessing/alpha_<fl>` and
 * `preprocessing/beta_<fl>`, `(1)`. Each is the multi-replica weight without its replica axis.
 */
export function replicaWeightShapes(architecture: ReplicaArchitecture): Map<string, number[]> {
  const shapes = new Map<string, number[]>();
  let inputs = NETWORK_INPUTS;
  architecture.units.forEach((units, layer) => {
    shapes.set(`network/kernel_${layer}`, [inputs, units]);
    shapes.set(`network/bias_${layer}`, [1, units]);
    inputs = units;
  });
  for (const { fl } of architecture.flavours) {
    shapes.set(`preprocessing/alpha_${fl}`, [1]);
    shapes.set(`preprocessing/beta_${fl}`, [1]);
  }
  return shapes;
}

/** The number of sum-rule factors: one per evolution-basis flavour. */
export const NORMALISATION_SIZE = EVOLUTION_BASIS_SIZE;
