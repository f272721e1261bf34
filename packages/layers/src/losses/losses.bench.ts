import * as tf from '@tensorflow/tfjs-core';
import { type Chi2Structure } from '@partonfit/core';
import { initBackend } from '@partonfit/backend';
import { bench, describe } from 'vitest';
import { randomArray, toFloat32 } from '../ops/numeric.fixture.js';
import type { TestBackend } from '@partonfit/testing';
import { chi2Loss, type Chi2LossArgs } from './chi2-loss.js';
import { randomCovarianceStructure, randomEigenbasisStructure } from './losses.fixture.js';

/**
 * Forward + backward of the χ² layer (d Σ χ² / d predictions), ms per step, for one block of
 * 1,000 points (a large experiment), R = 1, 10, 100: shared covariance, per-replica covariance
 * (batched product vs broadcast-multiply-and-sum), eigenbasis with per-replica mode weights, and
 * a plain autodiff baseline of the shared form (tf.matMul + tf.sum, no custom gradient).
 *
 * Run: `npx vitest bench --run --project layers losses.bench` (from the repository root).
 * `PARTONFIT_BENCH_BACKENDS` (default `wasm,cpu`) and `PARTONFIT_BENCH_REPLICAS` (default
 * `1,10,100`) narrow it.
 */
const backends = (process.env.PARTONFIT_BENCH_BACKENDS ?? 'wasm,cpu').split(',') as TestBackend[];
const replicaCounts = (process.env.PARTONFIT_BENCH_REPLICAS ?? '1,10,100').split(',').map(Number);
const options = { iterations: 3, time: 1000, warmupIterations: 1, warmupTime: 0 };
const NDATA = 1000;

interface Case {
  readonly name: string;
  readonly structure: (replicas: number) => Chi2Structure;
  readonly args?: Partial<Chi2LossArgs>;
}

const cases: Case[] = [
  {
    name: 'covariance shared',
    structure: () => randomCovarianceStructure(NDATA, 1, [[0, NDATA]], 1),
  },
  {
    name: 'covariance per replica (batched)',
    structure: (replicas) => randomCovarianceStructure(NDATA, replicas, [[0, NDATA]], 2),
    args: { perReplicaProduct: 'batched' },
  },
  {
    name: 'covariance per replica (broadcast)',
    structure: (replicas) => randomCovarianceStructure(NDATA, replicas, [[0, NDATA]], 2),
    args: { perReplicaProduct: 'broadcast' },
  },
  {
    name: 'eigenbasis, per-replica mode weights',
    structure: (replicas) => randomEigenbasisStructure(NDATA, replicas, [[0, NDATA, NDATA]], 3),
  },
];

function predictionsFor(replicas: number): tf.Tensor2D {
  return tf.tensor2d(toFloat32(randomArray(replicas * NDATA, 4)), [replicas, NDATA]);
}

function makeLayerStep(benchCase: Case, replicas: number) {
  const layer = chi2Loss({
    ...benchCase.args,
    structure: benchCase.structure(replicas),
    data: toFloat32(randomArray(replicas * NDATA, 5)),
  });
  const predictions = predictionsFor(replicas);
  return {
    step: () => {
      tf.tidy(() => {
        tf.grad((input: tf.Tensor) => tf.sum(layer.apply(input) as tf.Tensor))(
          predictions,
        ).dataSync();
      });
    },
    dispose: () => {
      predictions.dispose();
      layer.dispose();
    },
  };
}

/** The same shared form written naively: autodiff through tf.matMul and tf.sum. */
function makeAutodiffStep(replicas: number) {
  const weights = tf.tensor2d(toFloat32(randomArray(NDATA * NDATA, 1)), [NDATA, NDATA]);
  const data = tf.tensor2d(toFloat32(randomArray(replicas * NDATA, 5)), [replicas, NDATA]);
  const predictions = predictionsFor(replicas);
  return {
    step: () => {
      tf.tidy(() => {
        tf.grad((input: tf.Tensor) => {
          const residuals = tf.sub<tf.Tensor2D>(data, input);
          return tf.sum(tf.mul(residuals, tf.matMul(residuals, weights)));
        })(predictions).dataSync();
      });
    },
    dispose: () => {
      tf.dispose([weights, data, predictions]);
    },
  };
}

for (const backend of backends) {
  describe(`χ² forward+backward, ${NDATA} points [${backend}]`, () => {
    const all: { name: string; make: (replicas: number) => ReturnType<typeof makeAutodiffStep> }[] =
      [
        ...cases.map((benchCase) => ({
          name: benchCase.name,
          make: (replicas: number) => makeLayerStep(benchCase, replicas),
        })),
        { name: 'covariance shared, autodiff baseline', make: makeAutodiffStep },
      ];
    for (const { name, make } of all) {
      for (const replicas of replicaCounts) {
        let running: ReturnType<typeof makeAutodiffStep> | undefined;
        bench(
          `${name}, R=${replicas}`,
          () => {
            running?.step();
          },
          {
            ...options,
            setup: async () => {
              // Hooks such as beforeAll do not run in bench mode: switch the backend here.
              if (tf.getBackend() !== backend) await initBackend(backend);
              running ??= make(replicas);
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
