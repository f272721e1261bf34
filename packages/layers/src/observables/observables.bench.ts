import * as tf from '@tensorflow/tfjs-core';
import { type ObservableTensors } from '@partonfit/core';
import { initBackend } from '@partonfit/backend';
import { bench, describe } from 'vitest';
import type { TestBackend } from '@partonfit/testing';
import type { DisFormulation, FkTransposeStorage, HadronicFormulation } from './fk-convolution.js';
import { observableLayer, type ObservableLayerArgs } from './observable-layer.js';
import { randomDisTable, randomHadronicTable, randomPdf } from './observable.fixture.js';

/**
 * Forward + backward of one observable layer (d Σ predictions / d pdf), ms per step, on
 * realistic sizes: a hadronic dataset (200 points, 50 x nodes, 40 luminosity channels) and the
 * NNPDF4.0 DIS part as one table (3,000 points, 50 x nodes, 9 flavours), for R = 1, 10, 100.
 *
 * Run: `npx vitest bench --run --project layers observables.bench` (from the repository root).
 * `PARTONFIT_BENCH_BACKENDS` (default `wasm,cpu`) and `PARTONFIT_BENCH_REPLICAS` (default
 * `1,10,100`) narrow it. Cases whose step would take more than ~20 s on a backend (the padded
 * and two-step hadronic forms on cpu at large R) are left out.
 */
const backends = (process.env.PARTONFIT_BENCH_BACKENDS ?? 'wasm,cpu').split(',') as TestBackend[];
const replicaCounts = (process.env.PARTONFIT_BENCH_REPLICAS ?? '1,10,100').split(',').map(Number);
const options = { iterations: 3, time: 1000, warmupIterations: 1, warmupTime: 0 };

const X_POINTS = 50;

/** 40 distinct (first, second) flavour pairs among the 9 flavours DIS tables use. */
const LUMINOSITY_CHANNELS = Array.from({ length: 40 }, (_, c) => {
  const flavours = [1, 2, 3, 4, 5, 6, 9, 10, 11];
  return [flavours[c % 9], flavours[(c + Math.floor(c / 9) + 1) % 9]] as const;
});

const hadronic: ObservableTensors = {
  name: 'HADRONIC_200',
  ndata: 200,
  operation: 'NULL',
  operands: [
    [
      randomHadronicTable(
        { name: 'hadronic', ndata: 200, nx: X_POINTS, xOffset: 0, seed: 1 },
        LUMINOSITY_CHANNELS,
      ),
    ],
  ],
};

const dis: ObservableTensors = {
  name: 'DIS_3000',
  ndata: 3000,
  operation: 'NULL',
  operands: [
    [
      randomDisTable(
        { name: 'dis', ndata: 3000, nx: X_POINTS, xOffset: 0, seed: 2 },
        [1, 2, 3, 4, 5, 6, 9, 10, 11],
      ),
    ],
  ],
};

interface Case {
  readonly name: string;
  readonly args: ObservableLayerArgs;
  /** Largest replica count run on cpu (the step grows linearly in R there). */
  readonly cpuMaxReplicas: number;
  /** Largest replica count run on wasm. */
  readonly wasmMaxReplicas: number;
}

const hadronicCase = (
  hadronicFormulation: HadronicFormulation,
  fkTranspose: FkTransposeStorage,
  cpuMaxReplicas: number,
  wasmMaxReplicas = 100,
): Case => ({
  name: `hadronic ${hadronicFormulation} (${fkTranspose})`,
  args: { observable: hadronic, hadronicFormulation, fkTranspose },
  cpuMaxReplicas,
  wasmMaxReplicas,
});

const disCase = (disFormulation: DisFormulation, fkTranspose: FkTransposeStorage): Case => ({
  name: `DIS ${disFormulation} (${fkTranspose})`,
  args: { observable: dis, disFormulation, fkTranspose },
  cpuMaxReplicas: 100,
  wasmMaxReplicas: 100,
});

const cases: Case[] = [
  hadronicCase('luminosity', 'keep', 100),
  hadronicCase('luminosity', 'recompute', 10),
  hadronicCase('two-step', 'keep', 10),
  hadronicCase('padded', 'recompute', 1, 10),
  disCase('compact', 'keep'),
  disCase('compact', 'recompute'),
  disCase('padded', 'keep'),
];

/** One training-like step: forward, backward to the PDF, and a read that forces completion. */
function makeStep(args: ObservableLayerArgs, replicas: number) {
  const layer = observableLayer(args);
  const pdf = tf.tensor3d(Float32Array.from(randomPdf(replicas, X_POINTS, 3)), [
    replicas,
    X_POINTS,
    14,
  ]);
  const step = () => {
    tf.tidy(() => {
      tf.grad((input: tf.Tensor) => tf.sum(layer.apply(input) as tf.Tensor))(pdf).dataSync();
    });
  };
  const dispose = () => {
    pdf.dispose();
    layer.dispose();
  };
  return { step, dispose };
}

for (const backend of backends) {
  describe(`observable layer forward+backward [${backend}]`, () => {
    for (const benchCase of cases) {
      const maxReplicas = backend === 'cpu' ? benchCase.cpuMaxReplicas : benchCase.wasmMaxReplicas;
      for (const replicas of replicaCounts.filter((count) => count <= maxReplicas)) {
        let running: ReturnType<typeof makeStep> | undefined;
        bench(
          `${benchCase.name}, R=${replicas}`,
          () => {
            running?.step();
          },
          {
            ...options,
            setup: async () => {
              // Hooks such as beforeAll do not run in bench mode: switch the backend here.
              if (tf.getBackend() !== backend) await initBackend(backend);
              running ??= makeStep(benchCase.args, replicas);
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
