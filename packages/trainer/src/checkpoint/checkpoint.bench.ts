import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from '@partonfit/backend';
import { gaussIntegrationGrid } from '@partonfit/layers';
import { bench, describe } from 'vitest';
import type { TestBackend } from '@partonfit/testing';
import { buildTrainingParts } from '../training/train-replicas.js';
import { closureInputs, smallClosureRuncard } from '../training/training.fixture.js';
import { readCheckpoint, writeCheckpoint } from './checkpoint-file.js';
import { runFingerprint, type RunFingerprint } from './run-fingerprint.js';
import {
  captureCheckpoint,
  restoreCheckpoint,
  type TrainingLoopState,
  type TrainingParts,
} from '../training/training-state.js';

/**
 * A checkpoint of the embedded closure fit (the NNPDF4.0 network, 779 weights per replica with
 * the preprocessing, Nadam) after 17000 epochs (170 history entries): ms to read the state off
 * the device and write the file atomically, and to read it back and restore it, R = 10, 100.
 *
 * Run: `npx vitest bench --run --project trainer checkpoint.bench` (from the repository root).
 * `PARTONFIT_BENCH_BACKENDS` (default `wasm,cpu`) and `PARTONFIT_BENCH_REPLICAS` (default
 * `10,100`) narrow it.
 */
const backends = (process.env.PARTONFIT_BENCH_BACKENDS ?? 'wasm,cpu').split(',') as TestBackend[];
const replicaCounts = (process.env.PARTONFIT_BENCH_REPLICAS ?? '10,100').split(',').map(Number);
const options = { iterations: 10, time: 1000, warmupIterations: 2, warmupTime: 0 };
const EPOCHS = 17000;

interface Running {
  readonly parts: TrainingParts;
  readonly fingerprint: RunFingerprint;
  readonly file: string;
  readonly loop: TrainingLoopState;
}

/** The parts of a closure fit of R replicas after one update, and its checkpoint on disk. */
async function setUp(replicas: number): Promise<Running> {
  const runcard = await smallClosureRuncard({ epochs: EPOCHS });
  const replicaList = Array.from({ length: replicas }, (_, r) => r + 1);
  const parts = buildTrainingParts(
    runcard,
    await closureInputs(runcard, replicaList),
    gaussIntegrationGrid(100),
  );
  // One update, so that the optimiser holds its statistics.
  const variables = parts.model.trainableVariables();
  tf.tidy(() => {
    parts.optimizer.applyGradients(
      variables,
      variables.map((variable) => tf.zerosLike(variable)),
    );
  });
  const running: Running = {
    parts,
    fingerprint: runFingerprint(runcard, replicaList),
    file: join(await mkdtemp(join(tmpdir(), 'partonfit-checkpoint-bench-')), 'checkpoint.h5'),
    loop: {
      epoch: EPOCHS,
      seconds: 0,
      history: Array.from({ length: EPOCHS / 100 }, (_, i) => ({
        epoch: 100 * (i + 1),
        training: new Float32Array(replicas).fill(1.5),
        validation: new Float32Array(replicas).fill(1.7),
      })),
    },
  };
  await save(running);
  return running;
}

async function save({ parts, fingerprint, file, loop }: Running): Promise<void> {
  await writeCheckpoint(file, await captureCheckpoint(parts, fingerprint, loop));
}

async function load({ parts, fingerprint, file }: Running): Promise<void> {
  restoreCheckpoint(file, await readCheckpoint(file, fingerprint), parts);
}

function tearDown({ parts }: Running): void {
  parts.stopping.dispose();
  parts.optimizer.dispose();
  parts.objective.dispose();
  parts.model.dispose();
}

for (const backend of backends) {
  describe(`checkpoint of the NNPDF4.0 network after ${EPOCHS} epochs [${backend}]`, () => {
    for (const replicas of replicaCounts) {
      for (const [name, task] of [
        ['capture + write', save],
        ['read + restore', load],
      ] as const) {
        let running: Running | undefined;
        bench(
          `${name}, R=${replicas}`,
          async () => {
            if (running !== undefined) await task(running);
          },
          {
            ...options,
            setup: async () => {
              // Hooks such as beforeAll do not run in bench mode: switch the backend here.
              if (tf.getBackend() !== backend) await initBackend(backend);
              running ??= await setUp(replicas);
            },
            teardown: (_task, mode) => {
              if (mode === 'run' && running !== undefined) {
                tearDown(running);
                running = undefined;
              }
            },
          },
        );
      }
    }
  });
}
