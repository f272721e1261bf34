import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { EVOLUTION_BASIS_SIZE, InvalidArgumentError, ShapeError } from '@partonfit/core';
import {
  FlavourRotation,
  logXFeatures,
  NETWORK_INPUTS,
  ReplicaActivation,
  ReplicaPreprocessing,
  SumRuleFactors,
  type ActivationName,
} from '@partonfit/layers';
import {
  NORMALISATION_SIZE,
  replicaWeightShapes,
  type ReplicaArchitecture,
  type ReplicaParameters,
} from './replica-parameters.js';

/** The partonfit activations that tfjs-layers' `dense` computes under the same name. */
const DENSE_ACTIVATIONS: ReadonlySet<ActivationName> = new Set([
  'linear',
  'tanh',
  'sigmoid',
  'relu',
  'elu',
  'softplus',
]);

/** The names of the layers of a single-replica model. */
export const REPLICA_LAYERS = {
  input: 'x_logx',
  dense: (layer: number) => `dense_${layer}`,
  activation: (layer: number) => `activation_${layer}`,
  preprocessing: 'preprocessing',
  fitted: 'fitted',
  rotation: 'rotation',
  normalisation: 'normalisation',
} as const;

/**
 * The rotation from the fitted flavours to the evolution basis as a dense kernel,
 * `(fitted flavours, 14)` row-major (the transpose of `FlavourRotation`'s matrix).
 */
function rotationKernel(architecture: ReplicaArchitecture): Float32Array {
  const rotation = new FlavourRotation({
    fitBasis: architecture.fitBasis,
    flavours: architecture.flavours.map(({ fl }) => fl),
  });
  const fitted = architecture.flavours.length;
  const kernel = new Float32Array(fitted * EVOLUTION_BASIS_SIZE);
  for (let e = 0; e < EVOLUTION_BASIS_SIZE; e++) {
    for (let f = 0; f < fitted; f++) {
      kernel[f * EVOLUTION_BASIS_SIZE + e] = rotation.rotation[e * fitted + f];
    }
  }
  return kernel;
}

/** The layer graph of one replica, without its weights set. */
function replicaGraph(architecture: ReplicaArchitecture, name: string): tfl.LayersModel {
  const input = tfl.input({ shape: [NETWORK_INPUTS], name: REPLICA_LAYERS.input });
  let hidden = input;
  architecture.activations.forEach((activation, layer) => {
    const native = DENSE_ACTIVATIONS.has(activation);
    hidden = tfl.layers
      .dense({
        units: architecture.units[layer],
        activation: native ? (activation as 'linear') : 'linear',
        kernelInitializer: 'zeros',
        name: REPLICA_LAYERS.dense(layer),
      })
      .apply(hidden) as tfl.SymbolicTensor;
    if (!native) {
      hidden = new ReplicaActivation({ activation, name: REPLICA_LAYERS.activation(layer) }).apply(
        hidden,
      ) as tfl.SymbolicTensor;
    }
  });
  const prefactor = new ReplicaPreprocessing({
    flavours: architecture.flavours.map(({ fl }) => fl),
    name: REPLICA_LAYERS.preprocessing,
  }).apply(input) as tfl.SymbolicTensor;
  const fitted = tfl.layers
    .multiply({ name: REPLICA_LAYERS.fitted })
    .apply([hidden, prefactor]) as tfl.SymbolicTensor;
  const evolution = tfl.layers
    .dense({
      units: EVOLUTION_BASIS_SIZE,
      useBias: false,
      trainable: false,
      kernelInitializer: 'zeros',
      name: REPLICA_LAYERS.rotation,
    })
    .apply(fitted) as tfl.SymbolicTensor;
  const output = new SumRuleFactors({ name: REPLICA_LAYERS.normalisation }).apply(
    evolution,
  ) as tfl.SymbolicTensor;
  return tfl.model({ inputs: input, outputs: output, name });
}

function checkParameters(parameters: ReplicaParameters): void {
  const { architecture } = parameters;
  if (
    architecture.units.length === 0 ||
    architecture.units.length !== architecture.activations.length
  ) {
    throw new InvalidArgumentError({
      argument: 'architecture',
      problem: `expected one activation per layer, got ${architecture.units.length} layers and ${architecture.activations.length} activations`,
    });
  }
  const last = architecture.units[architecture.units.length - 1];
  if (last !== architecture.flavours.length) {
    throw new InvalidArgumentError({
      argument: 'architecture',
      problem: `the last layer has ${last} units but ${architecture.flavours.length} flavours are fitted`,
    });
  }
  for (const [name, shape] of replicaWeightShapes(architecture)) {
    const weight = parameters.weights.get(name);
    const size = shape.reduce((product, axis) => product * axis, 1);
    if (weight?.data.length !== size) {
      throw new ShapeError({
        quantity: `weight ${name}`,
        expected: shape,
        actual: weight === undefined ? [] : [...weight.shape],
      });
    }
  }
  if (parameters.normalisation.length !== NORMALISATION_SIZE) {
    throw new ShapeError({
      quantity: 'normalisation',
      expected: [NORMALISATION_SIZE],
      actual: [parameters.normalisation.length],
      axes: '(evolution flavour)',
    });
  }
}

/** Sets one layer's weights from float32 arrays with the layer's own shapes. */
function setLayerWeights(layer: tfl.layers.Layer, values: readonly Float32Array[]): void {
  const tensors = layer.weights.map((weight, i) => tf.tensor(values[i], weight.shape as number[]));
  layer.setWeights(tensors);
  tf.dispose(tensors);
}

/**
 * Builds one replica's PDF as an ordinary single-replica tfjs `LayersModel` of plain layers:
 *
 * ```
 * x_logx (points, 2) ─ dense_0 … dense_{L−1} ──────────────┐
 *                   └─ preprocessing (points, F) ─── fitted (×) ─ rotation ─ normalisation
 * ```
 *
 * - input `x_logx`: `[x, log x]` per point, `(points, 2)`, as `logXFeatures` makes it;
 * - `dense_<l>`: `tf.layers.dense` with the runcard's units and activation (followed by
 *   `activation_<l>`, a {@link ReplicaActivation}, for `square`, `leaky_relu`, `modified_tanh`);
 * - `preprocessing`: x^(1−α)(1−x)^β per fitted flavour ({@link ReplicaPreprocessing});
 * - `fitted`: the network output times the prefactor, `(points, F)`;
 * - `rotation`: a bias-free, non-trainable `dense` whose kernel is the fit-basis → evolution-basis
 *   rotation, `(F, 14)`;
 * - `normalisation`: the frozen sum-rule factors ({@link SumRuleFactors}).
 *
 * Output: x·f at Q0 in the evolution basis, `(points, 14)`. Rows are independent, so any batch
 * size gives the same numbers. The model can be saved with `model.save` (e.g. to
 * {@link modelFolderHandler}) and reloaded with `tfl.loadLayersModel`.
 *
 * @param name - the model's name, e.g. `replica_3`
 * @throws InvalidArgumentError for an inconsistent architecture; ShapeError for a missing
 *   weight or one of the wrong size
 */
export function buildReplicaModel(
  parameters: ReplicaParameters,
  name = 'replica',
): tfl.LayersModel {
  checkParameters(parameters);
  const { architecture, weights } = parameters;
  const model = replicaGraph(architecture, name);
  const value = (weightName: string) => (weights.get(weightName) as { data: Float32Array }).data;
  architecture.units.forEach((_, layer) => {
    setLayerWeights(model.getLayer(REPLICA_LAYERS.dense(layer)), [
      value(`network/kernel_${layer}`),
      value(`network/bias_${layer}`),
    ]);
  });
  setLayerWeights(model.getLayer(REPLICA_LAYERS.preprocessing), [
    ...architecture.flavours.map(({ fl }) => value(`preprocessing/alpha_${fl}`)),
    ...architecture.flavours.map(({ fl }) => value(`preprocessing/beta_${fl}`)),
  ]);
  setLayerWeights(model.getLayer(REPLICA_LAYERS.rotation), [rotationKernel(architecture)]);
  setLayerWeights(model.getLayer(REPLICA_LAYERS.normalisation), [parameters.normalisation]);
  return model;
}

/**
 * x·f of one replica at the given x values, in the evolution basis.
 *
 * @param model - a single-replica model ({@link buildReplicaModel} or `extractReplica`)
 * @param x - the x points, each in (0, 1], `(x)`
 * @returns float64 copies of the float32 values, `(x, 14)` row-major
 */
export async function replicaPdfAt(model: tfl.LayersModel, x: Float64Array): Promise<Float64Array> {
  const features = logXFeatures(x);
  const values = tf.tidy(() => model.predict(features, { batchSize: x.length }) as tf.Tensor);
  try {
    return Float64Array.from(await values.data());
  } finally {
    tf.dispose([features, values]);
  }
}
