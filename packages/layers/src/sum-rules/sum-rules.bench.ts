import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from '@partonfit/backend';
import { bench, describe } from 'vitest';
import { variablesOf } from '../multi-dense/layer-testing.fixture.js';
import type { TestBackend } from '@partonfit/testing';
import {
  gaussIntegrationGrid,
  nnpdfIntegrationGrid,
  type IntegrationGrid,
} from './integration-grid.js';
import { fitXGrid, pdfInputs, pdfLayers, unnormalisedPdf } from './pdf-model.fixture.js';

/**
 * One training-like step of the whole PDF (NNPDF4.0 network, preprocessing, EVOL rotation, sum
 * rules; forward on [1,500 fit points, integration grid], backward to every weight), ms per
 * step, with upstream's 2000-point grid and Gauss–Legendre grids of 200, 100 and 50 points.
 *
 * Run: `npx vitest bench --run --project layers sum-rules.bench` (repository root).
 * `PARTONFIT_BENCH_BACKENDS` (default `wasm,cpu`), `PARTONFIT_BENCH_REPLICAS` (default
 * `1,10,100`) and `PARTONFIT_BENCH_POINTS` (fit points, default 1500) narrow it.
 */
const backends = (process.env.PARTONFIT_BENCH_BACKENDS ?? 'wasm,cpu').split(',') as TestBackend[];
const replicaCounts = (process.env.PARTONFIT_BENCH_REPLICAS ?? '1,10,100').split(',').map(Number);
const fitPoints = Number(process.env.PARTONFIT_BENCH_POINTS ?? 1500);
const options = (replicas: number) => ({
  iterations: replicas >= 100 ? 3 : 10,
  time: 0,
  warmupIterations: 1,
  warmupTime: 0,
});

const GRIDS: readonly (readonly [string, () => IntegrationGrid])[] = [
  ['nnpdf 2000', () => nnpdfIntegrationGrid()],
  ['gauss 200', () => gaussIntegrationGrid(200)],
  ['gauss 100', () => gaussIntegrationGrid(100)],
  ['gauss 50', () => gaussIntegrationGrid(50)],
];

function makeStep(grid: IntegrationGrid, replicas: number) {
  const fitX = fitXGrid(fitPoints);
  const layers = pdfLayers({
    replicaSeeds: Array.from({ length: replicas }, (_, r) => 7 * r),
    grid,
    fitPoints,
  });
  const inputs = pdfInputs(fitX, grid);
  const pdf = () => layers.sumRules.apply(unnormalisedPdf(layers, ...inputs)) as tf.Tensor;
  pdf().dispose();
  const variables = variablesOf(layers.dense);
  const step = () => {
    tf.tidy(() => {
      const { value, grads } = tf.variableGrads(
        () => tf.sum<tf.Scalar>(tf.square(pdf())),
        variables,
      );
      value.dataSync();
      Object.values(grads).forEach((grad) => grad.dataSync());
    });
  };
  const dispose = () => {
    inputs.forEach((input) => {
      input.dispose();
    });
    [...layers.dense, layers.preprocessing, layers.rotation, layers.sumRules].forEach((layer) => {
      layer.dispose();
    });
  };
  return { step, dispose };
}

for (const backend of backends) {
  describe(`PDF step with sum rules, ${fitPoints} fit points [${backend}]`, () => {
    for (const replicas of replicaCounts) {
      for (const [name, grid] of GRIDS) {
        let running: ReturnType<typeof makeStep> | undefined;
        bench(
          `${name}, R=${replicas}`,
          () => {
            running?.step();
          },
          {
            ...options(replicas),
            setup: async () => {
              if (tf.getBackend() !== backend) await initBackend(backend);
              running ??= makeStep(grid(), replicas);
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
