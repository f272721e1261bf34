import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartonfitError, SeededRandom } from '@partonfit/core';
import { damageBytes, FUZZ_MUTATIONS } from '@partonfit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { readCheckpoint, writeCheckpoint } from './checkpoint-file.js';
import type { RunFingerprint } from './run-fingerprint.js';
import type { TrainingCheckpoint } from './training-checkpoint.js';

const FINGERPRINT: RunFingerprint = { runcardSha256: 'cd'.repeat(32), replicas: [1, 2] };

/** A small checkpoint of two replicas. */
function checkpoint(): TrainingCheckpoint {
  const values = (length: number, first: number) =>
    Float32Array.from({ length }, (_, i) => first + i / 3);
  return {
    fingerprint: FINGERPRINT,
    epoch: 200,
    seconds: 1.5,
    weights: new Map([['network/kernel_0', { shape: [2, 2, 3], data: values(12, 0.5) }]]),
    optimizer: {
      name: 'Adam',
      step: 200,
      slots: new Map([
        ['momentum', new Map([['network/kernel_0', { shape: [2, 2, 3], data: values(12, 1e-6) }]])],
      ]),
    },
    stopping: {
      bestValidation: Float32Array.of(Number.POSITIVE_INFINITY, 3.5),
      bestEpoch: Float32Array.of(-1, 150),
      stopEpoch: Float32Array.of(-1, -1),
      waiting: Float32Array.of(0, 50),
      counting: Float32Array.of(0, 1),
      failed: Float32Array.of(0, 0),
      bestWeights: new Map([['network/kernel_0', { shape: [2, 2, 3], data: values(12, 0.25) }]]),
    },
    multipliers: new Map([['positivity/POSF2U', Float32Array.of(10)]]),
    history: [{ epoch: 100, training: Float32Array.of(5, 4), validation: Float32Array.of(6, 5) }],
  };
}

describe('readCheckpoint on damaged files', () => {
  const folders: string[] = [];
  afterAll(async () => {
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it(`should read back the checkpoint or throw a partonfit error, over ${FUZZ_MUTATIONS} damaged copies`, async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-checkpoint-fuzz-'));
    folders.push(folder);
    const original = join(folder, 'checkpoint.h5');
    await writeCheckpoint(original, checkpoint());
    const bytes = new Uint8Array(await readFile(original));
    const random = new SeededRandom(20_261_124);
    const damaged = join(folder, 'damaged.h5');
    let refused = 0;
    for (let mutation = 0; mutation < FUZZ_MUTATIONS; mutation++) {
      await writeFile(damaged, damageBytes(bytes, random));
      try {
        // Whatever is read back is exactly what was written: the checksum covers the rest.
        expect(await readCheckpoint(damaged, FINGERPRINT)).toEqual(checkpoint());
      } catch (error) {
        if (!PartonfitError.isInstance(error)) {
          throw new Error(`mutation ${mutation}: not a partonfit error: ${String(error)}`, {
            cause: error,
          });
        }
        refused++;
      }
    }
    // Much of an HDF5 file is free space, where damage changes nothing; the rest is refused.
    expect(refused).toBeGreaterThan(FUZZ_MUTATIONS / 20);
  });
});
