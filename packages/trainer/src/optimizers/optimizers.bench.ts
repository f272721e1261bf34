import * as tf from '@tensorflow/tfjs-core';
import { type OptimizerName } from '@partonfit/core';
import { initBackend } from '@partonfit/backend';
import { bench, describe } from 'vitest';
import type { TestBackend } from '@partonfit/testing';
import { randomArray, sizeOf } from './optimizers.fixture.js';
import { createReplicaOptimizer, type ReplicaOptimizer } from './replica-optimizer.js';

/**
 * One `applyGradients` call (clipping per replica, statistics, weights) for the NNPDF4.0
 * network's variables: kernels `(R, 2, 25)`, `(R, 25, 20)`, `(R, 20, 8)` and biases
 * `(R, 1, 25)`, `(R, 1, 20)`, `(R, 1, 8)` (763 weights per replica), ms per call, R = 1, 10, 100;
 * and Adam with an `active` mask that freezes every other replica.
 *
 * Run: `npx vitest bench --run --project trainer optimizers.bench` (from the repository root).
 * `PARTONFIT_BENCH_BACKENDS` (default `wasm,cpu`), `PARTONFIT_BENCH_REPLICAS` (default
 * `1,10,100`) and `PARTONFIT_BENCH_OPTIMIZERS` (default `Adam,Nadam,RMSprop`) narrow it.
 */
const backends = (process.env.PARTONFIT_BENCH_BACKENDS ?? 'wasm,cpu').split(',') as TestBackend[];
const replicaCounts = (process.env.PARTONFIT_BENCH_REPLICAS ?? '1,10,100').split(',').map(Number);
const optimizers = (process.env.PARTONFIT_BENCH_OPTIMIZERS ?? 'Adam,Nadam,RMSprop').split(
  ',',
) as OptimizerName[];
const options = { iterations: 20, time: 1000, warmupIterations: 5, warmupTime: 0 };

/** The NNPDF4.0 network's variables without the replica axis. */
const NNPDF40_SHAPES = [
  [2, 25],
  [1, 25],
  [25, 20],
  [1, 20],
  [20, 8],
  [1, 8],
] as const;

interface Running {
  readonly optimizer: ReplicaOptimizer;
  readonly variables: tf.Variable[];
  readonly gradients: tf.Tensor[];
  readonly active: tf.Tensor | undefined;
}

function setUp(name: OptimizerName, replicas: number, masked: boolean): Running {
  const shapes = NNPDF40_SHAPES.map((shape) => [replicas, ...shape]);
  return {
    active: masked
      ? tf.tensor1d(Array.from({ length: replicas }, (_, replica) => replica % 2))
      : undefined,
    optimizer: createReplicaOptimizer({ name, clipnorm: 1 }),
    variables: shapes.map((shape, index) =>
      tf.variable(tf.tensor(Float32Array.from(randomArray(sizeOf(shape), index)), shape)),
    ),
    gradients: shapes.map((shape, index) =>
      tf.tensor(Float32Array.from(randomArray(sizeOf(shape), 100 + index, -3, 3)), shape),
    ),
  };
}

for (const backend of backends) {
  describe(`applyGradients, NNPDF4.0 network (763 weights per replica) [${backend}]`, () => {
    const cases = [
      ...optimizers.map((name) => ({ name, masked: false })),
      { name: 'Adam' as const, masked: true },
    ];
    for (const { name, masked } of cases) {
      for (const replicas of replicaCounts) {
        let running: Running | undefined;
        bench(
          `${name}, clipnorm 1${masked ? ', active mask' : ''}, R=${replicas}`,
          () => {
            if (running !== undefined) {
              const { active } = running;
              running.optimizer.applyGradients(
                running.variables,
                running.gradients,
                active === undefined ? {} : { active },
              );
            }
          },
          {
            ...options,
            setup: async () => {
              // Hooks such as beforeAll do not run in bench mode: switch the backend here.
              if (tf.getBackend() !== backend) await initBackend(backend);
              running ??= setUp(name, replicas, masked);
            },
            teardown: (_task, mode) => {
              if (mode === 'run' && running !== undefined) {
                running.optimizer.dispose();
                tf.dispose([...running.variables, ...running.gradients]);
                running.active?.dispose();
                running = undefined;
              }
            },
          },
        );
      }
    }
  });
}
