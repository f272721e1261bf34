import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from '@partonfit/backend';
import { bench, describe } from 'vitest';
import { withCustomGrad } from '../ops/index.js';
import type { TestBackend } from '@partonfit/testing';
import { variablesOf } from './layer-testing.fixture.js';
import { multiDenseNetwork } from './multi-dense-network.js';
import { multiDense } from './multi-dense.js';

/**
 * Forward + backward (gradients of all weights) of the NNPDF4.0 network 2 → 25 → 20 → 8 (tanh,
 * tanh, linear) on 1,500 points, ms per step, for the MultiDense layer and the alternative
 * formulations it was chosen against:
 *
 * - `batched`: `tf.matMul` broadcasting the shared input against `(R, in, out)`, batched later
 *   layers, autodiff everywhere;
 * - `first 2-D`: the first layer as one plain 2-D product `(points, in) @ (in, R·out)` plus
 *   reshape/transpose, autodiff; later layers batched;
 * - `MultiDense`: the layer itself (first layer 2-D with a custom gradient of plain 2-D
 *   products; later layers batched, plain 2-D with custom gradient at R = 1);
 * - `custom grad everywhere`: also the later layers with explicit-transpose custom gradients;
 * - `MultiDenseNetwork per-replica`: the whole network as one custom-gradient operation of
 *   per-replica plain 2-D products (the default of `MultiDenseNetwork` on wasm).
 *
 * Run: `npx vitest bench --run --project layers multi-dense.bench` (repository root).
 * `PARTONFIT_BENCH_BACKENDS` (default `wasm,cpu`), `PARTONFIT_BENCH_REPLICAS` (default
 * `1,10,100`) and `PARTONFIT_BENCH_POINTS` (default 1500) narrow it.
 */
const backends = (process.env.PARTONFIT_BENCH_BACKENDS ?? 'wasm,cpu').split(',') as TestBackend[];
const replicaCounts = (process.env.PARTONFIT_BENCH_REPLICAS ?? '1,10,100').split(',').map(Number);
const points = Number(process.env.PARTONFIT_BENCH_POINTS ?? 1500);
const options = (replicas: number) => ({
  iterations: replicas >= 100 ? 5 : 20,
  time: 0,
  warmupIterations: 2,
  warmupTime: 0,
});

const SIZES = [2, 25, 20, 8];

type Dense = (input: tf.Tensor, kernel: tf.Tensor3D, bias: tf.Tensor3D) => tf.Tensor;

const batched: Dense = (input, kernel, bias) => tf.add(tf.matMul(input, kernel), bias);

const firstTwoD: Dense = (input, kernel, bias) => {
  const [replicas, inputs, units] = kernel.shape;
  const flat = tf.matMul(
    input,
    tf.reshape(tf.transpose(kernel, [1, 0, 2]), [inputs, replicas * units]),
  );
  const perReplica = tf.transpose(tf.reshape(flat, [input.shape[0], replicas, units]), [1, 0, 2]);
  return tf.add(perReplica, bias);
};

const laterExplicitTranspose: Dense = (input, kernel, bias) =>
  withCustomGrad(([h, w, b], save) => {
    save([h, w]);
    return {
      value: tf.add(tf.matMul(h, w), b),
      gradFunc: (dz, [savedH, savedW]) => [
        tf.matMul(dz, tf.transpose(savedW, [0, 2, 1])),
        tf.matMul(tf.transpose(savedH, [0, 2, 1]), dz),
        tf.sum(dz, 1, true),
      ],
    };
  })(input, kernel, bias);

function makeStep(formulation: string, replicas: number) {
  const x = tf.randomUniform([points, 2], 0.01, 1, 'float32', 1);
  const upstream = tf.randomNormal([replicas, points, 8], 0, 1, 'float32', 2);
  const seeds = Array.from({ length: replicas }, (_, r) => 10 * r);
  const layers = [0, 1, 2].map((l) =>
    multiDense({
      units: SIZES[l + 1],
      activation: l < 2 ? 'tanh' : 'linear',
      seeds: seeds.map((s) => s + l),
      sharedInput: l === 0,
    }),
  );
  let h: tf.Tensor = x;
  for (const layer of layers) h = layer.apply(h) as tf.Tensor;
  h.dispose();
  const variables = variablesOf(layers);
  const manual = (first: Dense, later: Dense) => () => {
    let out: tf.Tensor = x;
    for (let l = 0; l < 3; l++) {
      const z = (l === 0 ? first : later)(
        out,
        variables[2 * l] as tf.Tensor3D,
        variables[2 * l + 1] as tf.Tensor3D,
      );
      out = l < 2 ? tf.tanh(z) : z;
    }
    return out;
  };
  const forward: Record<string, () => tf.Tensor> = {
    batched: manual(batched, batched),
    'first 2-D': manual(firstTwoD, batched),
    MultiDense: () => layers.reduce((out: tf.Tensor, layer) => layer.apply(out) as tf.Tensor, x),
    'custom grad everywhere': () =>
      [1, 2].reduce(
        (out: tf.Tensor, l) => {
          const z = laterExplicitTranspose(
            out,
            variables[2 * l] as tf.Tensor3D,
            variables[2 * l + 1] as tf.Tensor3D,
          );
          return l < 2 ? tf.tanh(z) : z;
        },
        layers[0].apply(x) as tf.Tensor,
      ),
  };
  const network = multiDenseNetwork({
    units: SIZES.slice(1),
    activations: ['tanh', 'tanh', 'linear'],
    seeds: [0, 1, 2].map((l) => seeds.map((s) => s + l)),
    formulation: 'per-replica',
  });
  network.apply(x);
  network.setWeights(layers.flatMap((layer) => layer.getWeights()));
  forward['MultiDenseNetwork per-replica'] = () => network.apply(x) as tf.Tensor;
  const run = forward[formulation];
  const step = () => {
    tf.tidy(() => {
      const { value, grads } = tf.variableGrads(
        () => tf.sum<tf.Scalar>(tf.mul(run(), upstream)),
        formulation.startsWith('MultiDenseNetwork') ? variablesOf([network]) : variables,
      );
      value.dataSync();
      Object.values(grads).forEach((grad) => grad.dataSync());
    });
  };
  const dispose = () => {
    x.dispose();
    upstream.dispose();
    [...layers, network].forEach((layer) => {
      layer.dispose();
    });
  };
  return { step, dispose };
}

for (const backend of backends) {
  describe(`NNPDF4.0 network forward+backward, ${points} points [${backend}]`, () => {
    for (const replicas of replicaCounts) {
      for (const formulation of [
        'batched',
        'first 2-D',
        'MultiDense',
        'custom grad everywhere',
        'MultiDenseNetwork per-replica',
      ]) {
        let running: ReturnType<typeof makeStep> | undefined;
        bench(
          `${formulation}, R=${replicas}`,
          () => {
            running?.step();
          },
          {
            ...options(replicas),
            setup: async () => {
              if (tf.getBackend() !== backend) await initBackend(backend);
              running ??= makeStep(formulation, replicas);
            },
            teardown: (_task, mode) => {
              if (mode === 'run') {
                running?.dispose();
                running = undefined;
              }
            },
          },
        );
      }
    }
  });
}
