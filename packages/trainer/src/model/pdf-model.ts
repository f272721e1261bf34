import * as tf from '@tensorflow/tfjs-core';
import type * as tfl from '@tensorflow/tfjs-layers';
import {
  deriveNamedSeed,
  deriveReplicaSeed,
  InvalidArgumentError,
  replicaParameters,
  type Runcard,
} from '@partonfit/core';
import {
  FlavourRotation,
  logXFeatures,
  MultiDenseNetwork,
  Preprocessing,
  SumRuleNormalisation,
  xColumn,
  type IntegrationGrid,
} from '@partonfit/layers';
import {
  replicaMethodology,
  type NetworkGrouping,
  type ReplicaMethodology,
} from '../methodology/replica-methodology.js';

/** The network's and the preprocessing's seeds of every replica. */
export interface ReplicaModelSeeds {
  /**
   * `(replicas, layers)`, each replica with its own number of layers: layer l of replica r
   * starts from nnseed_r + l, as upstream.
   */
  readonly networkLayers: number[][];
  /** `(replicas)`: each replica's preprocessing exponents. */
  readonly preprocessing: number[];
}

/**
 * The seeds of the PDF model: replica r's network seed is `deriveReplicaSeed(nnseed, 'nnseed',
 * r)` (+ l for layer l, as upstream's nnseed_r + l), its preprocessing seed is derived from the
 * same by name — so replica r starts from the same weights whichever replicas run with it, and
 * whatever hyperparameters the others have. `networkSeeds` replaces each row's nnseed_r (e.g. a
 * scan's folds, which start a replica from other weights in each fold, as n3fit's k-folding does).
 */
export function replicaModelSeeds(
  runcard: Runcard,
  replicas: readonly number[],
  networkSeeds?: readonly number[],
): ReplicaModelSeeds {
  const base =
    networkSeeds ?? replicas.map((replica) => deriveReplicaSeed(runcard.nnseed, 'nnseed', replica));
  return {
    networkLayers: replicas.map((replica, r) =>
      replicaParameters(runcard, replica).nodes_per_layer.map(
        (_, layer) => ((base[r] ?? 0) + layer) >>> 0,
      ),
    ),
    preprocessing: base.map((seed) => deriveNamedSeed(seed, 'preprocessing')),
  };
}

function isVariable(value: tf.Tensor): value is tf.Variable {
  return value instanceof tf.Variable;
}

/** The tfjs variable behind a layer weight (tfjs-layers keeps one per weight). */
function asVariable(weight: tfl.LayerVariable): tf.Variable {
  const value: tf.Tensor = weight.read();
  if (!isVariable(value)) {
    throw new InvalidArgumentError({
      argument: weight.name,
      problem: 'is not backed by a tfjs variable',
    });
  }
  return value;
}

/** A model weight under a name that is the same in every run and process. */
export interface NamedWeight {
  /** `network/<weight>` or `preprocessing/<weight>`, e.g. `network/kernel_0`, `preprocessing/alpha_g`. */
  readonly name: string;
  /** The weight, replicas on the first axis. */
  readonly variable: tf.Variable;
}

/**
 * The name under which network group g's weights are saved: `network` when the model has one
 * network (every homogeneous fit), `network_<g>` when it has several.
 */
export function networkGroupName(group: number, single: boolean): string {
  return single ? 'network' : `network_${group}`;
}

const NETWORK_WEIGHT = /^network(?:_(\d+))?\/(kernel|bias)_(\d+)$/;

/**
 * What a saved weight name such as `network_1/kernel_2` says: the network group (0 for
 * `network`, the one group of a single network), the weight and the layer; undefined for a
 * weight outside the networks (the preprocessing's).
 */
export function networkWeightOf(
  name: string,
):
  { readonly group: number; readonly kind: 'kernel' | 'bias'; readonly layer: number } | undefined {
  const match = NETWORK_WEIGHT.exec(name);
  if (match === null) return undefined;
  return {
    group: match[1] ? Number(match[1]) : 0,
    kind: match[2] as 'kernel' | 'bias',
    layer: Number(match[3]),
  };
}

/** A layer's weights named `<group>/<weight>` (tfjs numbers the layers' own names per process). */
function namedLayerWeights(group: string, layer: tfl.layers.Layer): NamedWeight[] {
  return layer.weights.map((weight) => ({
    name: `${group}/${weight.originalName.split('/').at(-1) ?? weight.originalName}`,
    variable: asVariable(weight),
  }));
}

/** Options of {@link ReplicaPdfModel}. */
export interface ReplicaPdfModelOptions {
  /**
   * The preprocessing layer, for research on the parametrisation: x `(points, 1)` →
   * prefactor `(replicas, points, fitted flavours)`, multiplied into the network's output.
   * Default: the stock {@link Preprocessing} of the runcard's `fitting.basis`, seeded per
   * replica. A layer with a `clipToRanges()` method has it called after every step. The
   * per-replica export (`sliceReplicas`, `weights.h5`) needs the stock layer.
   */
  readonly preprocessing?: tfl.layers.Layer;
  /**
   * Each row's network seed, `(replicas)`, instead of `deriveReplicaSeed(nnseed, 'nnseed', r)`
   * (see {@link replicaModelSeeds}); the preprocessing's seed is derived from it alike.
   */
  readonly networkSeeds?: readonly number[];
  /**
   * Which replicas with their own hyperparameters share a network (default `architecture`; see
   * {@link NetworkGrouping}).
   */
  readonly networkGroups?: NetworkGrouping;
}

/** A layer that keeps its weights in range by clipping them after each optimiser step. */
interface ClippedAfterSteps {
  clipToRanges(): void;
}

function isClippedAfterSteps(layer: object): layer is ClippedAfterSteps {
  return typeof (layer as Partial<ClippedAfterSteps>).clipToRanges === 'function';
}

/** Point inputs of the PDF: network features and x, for given x values plus the integration grid. */
interface PointInputs {
  readonly features: tf.Tensor2D;
  readonly x: tf.Tensor2D;
}

function pointInputs(x: Float64Array, grid: IntegrationGrid): PointInputs {
  const points = new Float64Array(x.length + grid.x.length);
  points.set(x);
  points.set(grid.x, x.length);
  return { features: logXFeatures(points), x: xColumn(points) };
}

/**
 * The multi-replica PDF of a runcard: MultiDense network (x, log x) → fitted flavours,
 * times the preprocessing x^(1−α)(1−x)^β, rotated to the 14-flavour evolution basis and
 * normalised by the sum rules, for all replicas at once — x·f with shape
 * `(replicas, x, flavour)`. The PDF is evaluated on the fit's x-grid followed by the
 * integration grid, once per step.
 *
 * Replicas with their own hyperparameters (`parameters_per_replica`, `trial_specs`) train in
 * one network per group of one optimiser, depth and activations ({@link ReplicaMethodology}),
 * narrower members padded and masked; the groups' outputs are stacked in row order, so every
 * other part of the model and the fit sees one `(replicas, …)` tensor as before.
 */
export class ReplicaPdfModel {
  readonly replicas: number;
  /** The replicas' hyperparameters and the model's network groups, in row order. */
  readonly methodology: ReplicaMethodology;
  /** One network per group of {@link ReplicaMethodology.networks}, in row order. */
  readonly networks: readonly MultiDenseNetwork[];
  /** The preprocessing layer: the stock {@link Preprocessing} unless the options gave another. */
  readonly preprocessing: tfl.layers.Layer;
  readonly rotation: FlavourRotation;
  /** The integration grid of the sum rules. */
  readonly integration: IntegrationGrid;
  /** The sum rules imposed (the runcard's `fitting.sum_rules`). */
  readonly sumRulesMode: Runcard['fitting']['sum_rules'];
  private readonly sumRules: SumRuleNormalisation;
  private readonly fitInputs: PointInputs;

  /**
   * @param runcard - network, preprocessing, fit basis and sum rules
   * @param replicas - the replicas, 1-based, in the order of `replicaTrainingOrder`
   * @param xGrid - the fit's x points (the union of the FK tables' grids), (x)
   * @param integration - the integration grid of the sum rules
   * @param options - a custom preprocessing layer
   */
  constructor(
    runcard: Runcard,
    replicas: readonly number[],
    xGrid: Float64Array,
    integration: IntegrationGrid,
    options: ReplicaPdfModelOptions = {},
  ) {
    const { fitting } = runcard;
    if (options.networkSeeds !== undefined && options.networkSeeds.length !== replicas.length) {
      throw new InvalidArgumentError({
        argument: 'networkSeeds',
        problem: `expected one seed per row (${replicas.length}), got ${options.networkSeeds.length}`,
      });
    }
    const seeds = replicaModelSeeds(runcard, replicas, options.networkSeeds);
    this.replicas = replicas.length;
    this.methodology = replicaMethodology(runcard, replicas, options.networkGroups);
    this.integration = integration;
    this.sumRulesMode = fitting.sum_rules;
    this.networks = this.methodology.networks.map((group) => {
      const members = seeds.networkLayers.slice(group.start, group.end);
      const layerOf = (l: number, m: number) => group.memberLayers[l]?.[m] ?? -1;
      return new MultiDenseNetwork({
        units: group.units,
        activations: group.activations,
        replicaActivations: group.replicaActivations,
        passThrough: group.units.map((_, l) => members.map((_seeds, m) => layerOf(l, m) < 0)),
        initializer: group.initializers,
        seeds: group.units.map((_, l) => members.map((layers, m) => layers[layerOf(l, m)] ?? 0)),
        replicaUnits: group.replicaUnits,
      });
    });
    this.preprocessing =
      options.preprocessing ??
      new Preprocessing({ flavours: fitting.basis, seeds: seeds.preprocessing });
    this.rotation = new FlavourRotation({
      fitBasis: fitting.fitbasis,
      flavours: fitting.basis.map((flavour) => flavour.fl),
    });
    this.sumRules = this.normalisation(xGrid.length);
    this.fitInputs = pointInputs(xGrid, integration);
    tf.dispose(this.forward());
  }

  private normalisation(offset: number): SumRuleNormalisation {
    return new SumRuleNormalisation({
      mode: this.sumRulesMode,
      grid: this.integration,
      integrationOffset: offset,
    });
  }

  /**
   * The networks' output for all replicas, `(replicas, points, fitted flavours)`: each group's
   * rows, stacked in row order.
   *
   * @param features - `[x, log x]` of each point, `(points, 2)`
   */
  networkOutput(features: tf.Tensor2D): tf.Tensor3D {
    return tf.tidy(() => {
      const outputs = this.networks.map((network) => network.apply(features) as tf.Tensor3D);
      return outputs.length === 1 ? outputs[0] : tf.concat(outputs, 0);
    });
  }

  private evaluate(inputs: PointInputs, normalisation: SumRuleNormalisation): tf.Tensor3D {
    return tf.tidy(() => {
      const network = this.networkOutput(inputs.features);
      const prefactor = this.preprocessing.apply(inputs.x) as tf.Tensor3D;
      const fitted = tf.mul(network, prefactor);
      const evolution = this.rotation.apply(fitted) as tf.Tensor3D;
      return normalisation.apply(evolution) as tf.Tensor3D;
    });
  }

  /** x·f on the fit's x-grid, `(replicas, x, flavour)`, normalised by the sum rules. */
  forward(): tf.Tensor3D {
    return this.evaluate(this.fitInputs, this.sumRules);
  }

  /** x·f at other x values (e.g. the export grid), `(replicas, x, flavour)`, normalised alike. */
  at(x: Float64Array): tf.Tensor3D {
    const inputs = pointInputs(x, this.integration);
    const normalisation = this.normalisation(x.length);
    try {
      return this.evaluate(inputs, normalisation);
    } finally {
      tf.dispose([inputs.features, inputs.x]);
      normalisation.dispose();
    }
  }

  /** Clips the preprocessing's trainable exponents back into their ranges, if it does that. */
  clipPreprocessing(): void {
    if (isClippedAfterSteps(this.preprocessing)) this.preprocessing.clipToRanges();
  }

  /**
   * The stock preprocessing layer, whose exponents the per-replica export writes.
   *
   * @throws InvalidArgumentError when the model was built with a custom preprocessing layer
   */
  stockPreprocessing(): Preprocessing {
    if (!(this.preprocessing instanceof Preprocessing)) {
      throw new InvalidArgumentError({
        argument: 'preprocessing',
        problem: `the per-replica export needs the stock Preprocessing layer, not ${this.preprocessing.getClassName()}`,
      });
    }
    return this.preprocessing;
  }

  /** The weights the optimiser trains, each with replicas on the first axis. */
  trainableVariables(): tf.Variable[] {
    return [
      ...this.networks.flatMap((network) => network.trainableWeights),
      ...this.preprocessing.trainableWeights,
    ].map(asVariable);
  }

  /** Every weight of the model (trainable or not), for snapshots and checkpoints. */
  weights(): tf.Variable[] {
    return [
      ...this.networks.flatMap((network) => network.weights),
      ...this.preprocessing.weights,
    ].map(asVariable);
  }

  /**
   * The model rows `[start, end)` each of {@link ReplicaPdfModel.trainableVariables} holds: a
   * network group's rows for its weights, every row for the preprocessing's.
   */
  trainableRows(): [number, number][] {
    return this.rowsOf((layer) => layer.trainableWeights);
  }

  /** The model rows `[start, end)` each of {@link ReplicaPdfModel.weights} holds. */
  weightRows(): [number, number][] {
    return this.rowsOf((layer) => layer.weights);
  }

  private rowsOf(weightsOf: (layer: tfl.layers.Layer) => readonly unknown[]): [number, number][] {
    return [
      ...this.methodology.networks.flatMap((group, g) =>
        weightsOf(this.networks[g]).map((): [number, number] => [group.start, group.end]),
      ),
      ...weightsOf(this.preprocessing).map((): [number, number] => [0, this.replicas]),
    ];
  }

  /**
   * Every weight of the model, in the order of {@link ReplicaPdfModel.weights}, with a stable
   * name (see {@link NamedWeight}), for checkpoints: tfjs's own variable names carry per-process
   * layer counters and differ between two models of the same runcard.
   */
  namedWeights(): NamedWeight[] {
    const single = this.networks.length === 1;
    return [
      ...this.networks.flatMap((network, g) =>
        namedLayerWeights(networkGroupName(g, single), network),
      ),
      ...namedLayerWeights('preprocessing', this.preprocessing),
    ];
  }

  /** Frees the model's tensors. */
  dispose(): void {
    tf.dispose([this.fitInputs.features, this.fitInputs.x]);
    for (const layer of [...this.networks, this.preprocessing, this.rotation, this.sumRules]) {
      layer.dispose();
    }
  }
}
