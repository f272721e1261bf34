import {
  canonicalJson,
  InvalidArgumentError,
  replicaParameters,
  replicaParametersEntry,
  type FitParameters,
  type Runcard,
} from '@partonfit/core';
import { NETWORK_INPUTS, type ActivationName, type InitializerName } from '@partonfit/layers';
import { optimizerFormula } from '../optimizers/update-rules.js';

/**
 * Which replicas with their own hyperparameters share one multi-replica network:
 *
 * - `architecture` (the default): those of one optimiser formula (Adam and Nadam share one, see
 *   `adamFamilyRule`), depth and activations;
 * - `optimizer`: those of one optimiser formula — shallower members pass the deeper network's extra
 *   layers through and every member keeps its own activations (`MultiDenseNetwork`'s
 *   `passThrough` and `replicaActivations`), so that a scan's batch of many architectures
 *   trains in one network per formula. Each replica still computes its own network.
 */
export type NetworkGrouping = 'architecture' | 'optimizer';

/**
 * Replicas that train in one multi-replica network: the same optimiser formula and the same
 * depth and activations, in consecutive model rows. Narrower members are padded to the widest member's
 * width in each layer (`MultiDenseNetwork`'s `replicaUnits`).
 */
export interface NetworkGroup {
  /** The group's first model row. */
  readonly start: number;
  /** One past its last model row. */
  readonly end: number;
  /** The activation of each layer of the group's first member. */
  readonly activations: readonly ActivationName[];
  /** Each member's activation of each layer, `(layers, members)` (linear where it passes through). */
  readonly replicaActivations: readonly (readonly ActivationName[])[];
  /**
   * Each member's own layer at each layer of the network, `(layers, members)`: its layer index, or
   * −1 where a shallower member passes the layer through (its last hidden layers' outputs go
   * unchanged to its output layer, the network's last).
   */
  readonly memberLayers: readonly (readonly number[])[];
  /** The widest member's width of each layer: the network's widths. */
  readonly units: readonly number[];
  /** Each member's width of each layer, `(layers, members)`. */
  readonly replicaUnits: readonly (readonly number[])[];
  /** Each member's kernel initialiser, `(members)`. */
  readonly initializers: readonly InitializerName[];
}

/**
 * The hyperparameters of every replica of a fit, in the model's row order, and how the model
 * groups them (see the package README, "Replicas with their own hyperparameters").
 */
export interface ReplicaMethodology {
  /** The replicas, 1-based, in model row order (see {@link replicaTrainingOrder}). */
  readonly replicas: readonly number[];
  /** Each row's whole `parameters` section (`replicaParameters`). */
  readonly parameters: readonly FitParameters[];
  /** Each row's entry of `parameters_per_replica`, undefined without them. */
  readonly entries: readonly (number | undefined)[];
  /** Whether every replica has the same parameters: the model then has one network, scalars. */
  readonly uniform: boolean;
  /** The network groups, covering the rows in order. */
  readonly networks: readonly NetworkGroup[];
  /** Each row's `epochs`. */
  readonly epochs: readonly number[];
  /** The most epochs of any replica: how long the training loop may run. */
  readonly maxEpochs: number;
  /** Each row's patience in epochs, `int(epochs · stopping_patience)` as upstream. */
  readonly patience: readonly number[];
}

/**
 * The key of a replica's network group: its optimiser's formula (Adam and Nadam share one), then
 * depth and activations.
 */
function groupKey(parameters: FitParameters, grouping: NetworkGrouping): [string, string] {
  return [
    optimizerFormula(parameters.optimizer.optimizer_name),
    grouping === 'architecture' ? parameters.activation_per_layer.join(',') : '',
  ];
}

/**
 * The order in which a fit's replicas are the rows of the multi-replica model: grouped by
 * optimiser formula, then by depth and activations (each group in the order its first replica appears
 * in `replicas`), replicas within a group in the order given — so that each network group is a
 * run of consecutive rows. With one set of parameters for all (the usual fit) the order is
 * `replicas` itself. The replicas' results do not depend on it: every replica is seeded by its
 * own number.
 *
 * @param replicas - the fit's replicas, 1-based
 */
export function replicaTrainingOrder(runcard: Runcard, replicas: readonly number[]): number[] {
  const keys = replicas.map((replica) =>
    groupKey(replicaParameters(runcard, replica), 'architecture'),
  );
  const firstOf = (level: 0 | 1) => {
    const first = new Map<string, number>();
    keys.forEach((key, i) => {
      const name = level === 0 ? key[0] : key.join('|');
      if (!first.has(name)) first.set(name, i);
    });
    return (i: number) => first.get(level === 0 ? keys[i][0] : keys[i].join('|')) ?? i;
  };
  const optimizerRank = firstOf(0);
  const networkRank = firstOf(1);
  return replicas
    .map((replica, i) => ({ replica, i }))
    .sort(
      (a, b) =>
        optimizerRank(a.i) - optimizerRank(b.i) || networkRank(a.i) - networkRank(b.i) || a.i - b.i,
    )
    .map(({ replica }) => replica);
}

/**
 * The methodology of a fit's replicas as the model trains them: each row's parameters, the
 * network groups (consecutive rows of one optimiser, depth and activations — or of one optimiser
 * with `grouping` `optimizer`), and each row's epochs and patience.
 *
 * @param replicas - the replicas in model row order, as {@link replicaTrainingOrder} gives them
 * @param grouping - which replicas share a network (see {@link NetworkGrouping})
 * @throws InvalidArgumentError when the replicas are not in that order (a group's rows would not
 *   be consecutive)
 */
export function replicaMethodology(
  runcard: Runcard,
  replicas: readonly number[],
  grouping: NetworkGrouping = 'architecture',
): ReplicaMethodology {
  const parameters = replicas.map((replica) => replicaParameters(runcard, replica));
  const entries = replicas.map((replica) => replicaParametersEntry(runcard, replica));
  const texts = parameters.map((row) => canonicalJson(row));
  const uniform = texts.every((text) => text === texts[0]);
  const networks: NetworkGroup[] = [];
  const seen = new Set<string>();
  let start = 0;
  for (let row = 1; row <= replicas.length; row++) {
    const key = groupKey(parameters[start], grouping).join('|');
    if (row < replicas.length && groupKey(parameters[row], grouping).join('|') === key) continue;
    if (seen.has(key)) {
      throw new InvalidArgumentError({
        argument: 'replicas',
        problem: `replica ${replicas[start]}'s network group (${key}) is not in consecutive rows: order the replicas with replicaTrainingOrder`,
      });
    }
    seen.add(key);
    networks.push(networkGroup(parameters, start, row));
    start = row;
  }
  const epochs = parameters.map((row) => row.epochs);
  return {
    replicas: [...replicas],
    parameters,
    entries,
    uniform,
    networks,
    epochs,
    maxEpochs: Math.max(...epochs),
    patience: parameters.map((row) => Math.trunc(row.epochs * row.stopping_patience)),
  };
}

/**
 * A member's own layer at each of `layers` network layers: its hidden layers first, its output
 * layer last, −1 (passed through) between.
 */
function memberLayers(depth: number, layers: number): number[] {
  return Array.from({ length: layers }, (_, l) => {
    if (l === layers - 1) return depth - 1;
    return l < depth - 1 ? l : -1;
  });
}

function networkGroup(
  parameters: readonly FitParameters[],
  start: number,
  end: number,
): NetworkGroup {
  const members = parameters.slice(start, end);
  const layers = Math.max(...members.map((member) => member.nodes_per_layer.length));
  const own = members.map((member) => memberLayers(member.nodes_per_layer.length, layers));
  const widthOf = (member: FitParameters, layer: number): number => {
    if (layer >= 0) return member.nodes_per_layer[layer] ?? 0;
    // a layer passed through is as wide as the member's last hidden layer (or the input)
    const hidden = member.nodes_per_layer.length - 2;
    return hidden >= 0 ? (member.nodes_per_layer[hidden] ?? 0) : NETWORK_INPUTS;
  };
  const perLayer = <T>(value: (member: FitParameters, layer: number) => T): T[][] =>
    Array.from({ length: layers }, (_, l) =>
      members.map((member, m) => value(member, own[m][l] ?? -1)),
    );
  const replicaUnits = perLayer(widthOf);
  const replicaActivations = perLayer((member, layer): ActivationName =>
    layer < 0 ? 'linear' : (member.activation_per_layer[layer] ?? 'linear'),
  );
  return {
    start,
    end,
    activations: replicaActivations.map((layer) => layer[0] ?? 'linear'),
    replicaActivations,
    memberLayers: perLayer((_, layer) => layer),
    units: replicaUnits.map((widths) => Math.max(...widths)),
    replicaUnits,
    initializers: members.map((member) => member.initializer),
  };
}
