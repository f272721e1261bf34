/**
 * A PDF fit assembled from partonfit's packages, with one component swapped: the stock
 * `Preprocessing` layer and the `SmoothPreprocessing` layer of this folder are each trained for
 * a few hundred epochs on the embedded closure data of `examples/closure.yml`, and their χ²/n
 * against the central data are printed side by side.
 *
 * Run from the repository root after `npm run build`:
 *   npx tsc -p examples/research/tsconfig.build.json && node examples/research/dist/main.js
 */
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import type * as tfl from '@tensorflow/tfjs-layers';
import { deriveNamedSeed, deriveReplicaSeed, loadRuncard } from '@partonfit/core';
import { initBackend } from '@partonfit/backend';
import { prepareFitInputs } from '@partonfit/fktables';
import {
  Chi2Loss,
  FlavourRotation,
  gaussIntegrationGrid,
  logXFeatures,
  MultiDenseNetwork,
  ObservableLayer,
  Preprocessing,
  SumRuleNormalisation,
  xColumn,
} from '@partonfit/layers';
import { createReplicaOptimizer } from '@partonfit/trainer';
import { SmoothPreprocessing } from './smooth-preprocessing.js';

const EPOCHS = Number(process.env.EPOCHS ?? 500);
const REPLICAS = [1, 2, 3, 4];

const runcardFile = fileURLToPath(new URL('../../closure.yml', import.meta.url));
const backend = await initBackend('auto');
const { runcard } = await loadRuncard(runcardFile);
const { inputs } = await prepareFitInputs(runcard, {
  runcardFile,
  replicas: REPLICAS,
  cacheFolder: null,
});
const { parameters, fitting } = runcard;

// Seeds as `partonfit fit` derives them, so replica r starts from the same network.
const replicaSeeds = REPLICAS.map((r) => deriveReplicaSeed(runcard.nnseed, 'nnseed', r));
const networkSeeds = parameters.nodes_per_layer.map((_, layer) =>
  replicaSeeds.map((seed) => (seed + layer) >>> 0),
); // (layers, replicas)
const preprocessingSeeds = replicaSeeds.map((seed) => deriveNamedSeed(seed, 'preprocessing'));

// The PDF is evaluated on the fit's x-grid followed by the sum rules' integration grid.
const grid = gaussIntegrationGrid(100);
const points = Float64Array.from([...inputs.xGrid, ...grid.x]);
const features = logXFeatures(points); // (points, 2): [x, log x]
const x = xColumn(points); // (points, 1)

/** Trains all replicas with the given preprocessing layer; returns χ²/n per replica. */
async function fit(preprocessing: tfl.layers.Layer): Promise<Float32Array> {
  const network = new MultiDenseNetwork({
    units: parameters.nodes_per_layer,
    activations: parameters.activation_per_layer,
    initializer: parameters.initializer,
    seeds: networkSeeds,
  });
  const rotation = new FlavourRotation({
    fitBasis: fitting.fitbasis,
    flavours: fitting.basis.map((flavour) => flavour.fl),
  });
  const sumRules = new SumRuleNormalisation({
    mode: fitting.sum_rules,
    grid,
    integrationOffset: inputs.xGrid.length,
  });
  const observables = inputs.datasets.map(
    (dataset) => new ObservableLayer({ observable: dataset.observable }),
  );
  const trainingChi2 = new Chi2Loss({ structure: inputs.training, data: inputs.pseudodata });
  const experimentalChi2 = new Chi2Loss({
    structure: inputs.experimental,
    data: Float32Array.from(inputs.centralData),
    dataReplicas: 1,
  });

  // x·f (replicas, x, 14) → predictions (replicas, data) of every dataset.
  const pdf = () => {
    const nn = network.apply(features) as tf.Tensor3D; // (replicas, points, 8)
    const prefactor = preprocessing.apply(x) as tf.Tensor3D; // (replicas, points, 8)
    const evolution = rotation.apply(tf.mul(nn, prefactor)) as tf.Tensor3D; // (…, 14)
    return sumRules.apply(evolution) as tf.Tensor3D; // (replicas, x, 14)
  };
  const predictions = (xf: tf.Tensor3D) =>
    tf.concat(
      observables.map((layer) => layer.apply(xf) as tf.Tensor2D),
      1,
    );

  tf.tidy(() => predictions(pdf())); // builds every layer, so their weights exist
  const variables = [...network.trainableWeights, ...preprocessing.trainableWeights]
    .map((weight) => weight.read())
    .filter((value): value is tf.Variable => value instanceof tf.Variable);
  const optimizer = createReplicaOptimizer({
    name: parameters.optimizer.optimizer_name,
    learningRate: parameters.optimizer.learning_rate,
    clipnorm: parameters.optimizer.clipnorm,
  });
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    tf.tidy(() => {
      // Σ over replicas of each replica's χ²: replicas share no weight, so each gets its own gradient.
      const { grads } = tf.variableGrads(
        () => tf.sum(trainingChi2.apply(predictions(pdf())) as tf.Tensor1D),
        variables,
      );
      optimizer.applyGradients(
        variables,
        variables.map((variable) => grads[variable.name]),
      );
      // The stock layer keeps trainable exponents in range by clipping after each step.
      if (preprocessing instanceof Preprocessing) preprocessing.clipToRanges();
    });
  }
  const chi2 = tf.tidy(() =>
    tf.div(experimentalChi2.apply(predictions(pdf())) as tf.Tensor1D, inputs.ndata),
  );
  const perPoint = (await chi2.data()) as Float32Array;
  tf.dispose(chi2);
  optimizer.dispose();
  for (const layer of [network, preprocessing, rotation, sumRules, ...observables]) {
    layer.dispose();
  }
  trainingChi2.dispose();
  experimentalChi2.dispose();
  return perPoint;
}

const variants = {
  Preprocessing: () => new Preprocessing({ flavours: fitting.basis, seeds: preprocessingSeeds }),
  SmoothPreprocessing: () =>
    new SmoothPreprocessing({ flavours: fitting.basis, seeds: preprocessingSeeds }),
};
console.log(
  `${inputs.ndata} points, ${REPLICAS.length} replicas, ${EPOCHS} epochs on ${backend.backend}`,
);
for (const [name, make] of Object.entries(variants)) {
  const start = performance.now();
  const chi2 = await fit(make());
  const seconds = (performance.now() - start) / 1000;
  const values = Array.from(chi2, (value) => value.toFixed(2)).join(' ');
  console.log(`${name.padEnd(20)} χ²/n per replica: ${values}  (${seconds.toFixed(1)} s)`);
}
tf.dispose([features, x]);
