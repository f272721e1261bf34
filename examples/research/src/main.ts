/**
 * A PDF fit assembled from partonfit's packages, with one component swapped: the trainer's
 * multi-replica model is built once with the stock `Preprocessing` layer and once with the
 * `SmoothPreprocessing` layer of this folder, each is trained for a few hundred epochs on the
 * embedded closure data of `examples/closure.yml` with the trainer's own training step, and
 * their χ²/n against the central data are printed side by side.
 *
 * Run from the repository root after `npm run build`:
 *   npx tsc -p examples/research/tsconfig.build.json && node examples/research/dist/main.js
 */
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import type * as tfl from '@tensorflow/tfjs-layers';
import { initBackend } from '@partonfit/backend';
import { loadRuncard } from '@partonfit/core';
import { prepareFitInputs } from '@partonfit/fktables';
import { gaussIntegrationGrid } from '@partonfit/layers';
import {
  buildTrainingParts,
  disposeTrainingParts,
  replicaModelSeeds,
  TrainingSteps,
} from '@partonfit/trainer';
import { SmoothPreprocessing } from './smooth-preprocessing.js';

const EPOCHS = Number(process.env.EPOCHS ?? 500);
const REPLICAS = [1, 2, 3, 4];

const runcardFile = fileURLToPath(new URL('../../closure.yml', import.meta.url));
const backend = await initBackend('auto');
const loaded = (await loadRuncard(runcardFile)).runcard;
const runcard = { ...loaded, parameters: { ...loaded.parameters, epochs: EPOCHS } };
const { inputs } = await prepareFitInputs(runcard, {
  runcardFile,
  replicas: REPLICAS,
  cacheFolder: null,
});

/**
 * Trains all replicas with the given preprocessing layer (the stock one when undefined) for
 * `EPOCHS` steps; returns the experimental χ²/n of each replica, `(replicas)`.
 */
async function fit(preprocessing?: tfl.layers.Layer): Promise<Float32Array> {
  const parts = buildTrainingParts(
    runcard,
    inputs,
    gaussIntegrationGrid(100),
    preprocessing === undefined ? {} : { preprocessing },
  );
  const steps = new TrainingSteps(parts, inputs.trainingCounts, { epochs: EPOCHS });
  try {
    for (let epoch = 0; epoch < EPOCHS; epoch++) steps.step(epoch);
    const chi2 = tf.tidy(() =>
      tf.div(parts.objective.chi2s(parts.model.forward()).experimental, inputs.ndata),
    );
    try {
      return (await chi2.data()) as Float32Array;
    } finally {
      chi2.dispose();
    }
  } finally {
    steps.dispose();
    disposeTrainingParts(parts);
  }
}

// Replica r's exponents start where the stock layer's would: the same per-replica seeds.
const { preprocessing: seeds } = replicaModelSeeds(runcard, REPLICAS);
const variants = {
  Preprocessing: () => undefined,
  SmoothPreprocessing: () => new SmoothPreprocessing({ flavours: runcard.fitting.basis, seeds }),
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
