import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRuncard } from '@partonfit/core';
import { initBackend } from '@partonfit/backend';
import { prepareFitInputs } from '@partonfit/fktables';
import { describe, expect, it } from 'vitest';
import { readCheckpoint, runFingerprint, trainReplicas } from '@partonfit/trainer';
import { writeClosureRuncard } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

/** The embedded closure runcard cut to a few datasets and `epochs`, in a fresh folder. */
const shortRuncard = (epochs: number) =>
  writeClosureRuncard('short', { epochs, chargedLeptonsOnly: true });

/** A file of the fit folder `<output>/short/`. */
function fitFile(output: string, ...path: string[]): string {
  return join(output, 'short', ...path);
}

/**
 * Trains `runcard` as `partonfit fit --replicas 1-2 --backend cpu --checkpoint-every 100` would
 * (read-backs every 100 epochs), into `<output>/short/checkpoint_replicas_1-2.h5`; with `killAt`, dies at
 * that read-back, after writing its checkpoint.
 *
 * @returns the epoch of the checkpoint left behind
 */
async function checkpointedFit(
  runcardFile: string,
  output: string,
  killAt?: number,
): Promise<number> {
  await initBackend('cpu');
  const { runcard } = await loadRuncard(runcardFile);
  const { inputs } = await prepareFitInputs(runcard, {
    runcardFile,
    replicas: [1, 2],
    cacheFolder: null,
  });
  await mkdir(fitFile(output), { recursive: true });
  const file = fitFile(output, 'checkpoint_replicas_1-2.h5');
  const training = trainReplicas(runcard, inputs, {
    checkpoint: { file, every: 100 },
    onProgress: (progress) => {
      if (progress.epoch === killAt) throw new Error('killed');
    },
  });
  if (killAt === undefined) {
    const result = await training;
    result.objective.dispose();
    result.model.dispose();
  } else {
    await expect(training).rejects.toThrow('killed');
  }
  return (await readCheckpoint(file, runFingerprint(runcard, [1, 2]))).epoch;
}

const FIT = ['--replicas', '1-2', '--backend', 'cpu', '--checkpoint-every', '100'];

describe('partonfit fit --resume', () => {
  it('should finish a killed fit with the files of an uninterrupted one', async () => {
    const { folder, runcard } = await shortRuncard(120);
    const whole = join(folder, 'whole');
    const uninterrupted = await run('fit', runcard, ...FIT, '--output', whole);
    expect(uninterrupted.code).toBe(0);
    // The last checkpoint is written when training ends.
    expect(existsSync(fitFile(whole, 'checkpoint_replicas_1-2.h5'))).toBe(true);

    const resumedFolder = join(folder, 'resumed');
    expect(await checkpointedFit(runcard, resumedFolder, 100)).toBe(100);
    const resumed = await run('fit', runcard, ...FIT, '--output', resumedFolder, '--resume');
    expect(resumed.error).not.toContain('partonfit fit:');
    expect(resumed.code).toBe(0);
    expect(resumed.error).toContain(
      `resuming from ${fitFile(resumedFolder, 'checkpoint_replicas_1-2.h5')} at epoch 100`,
    );
    expect(resumed.out).toMatch(/fit short: 2 replica\(s\) on cpu, 120 epochs/);
    for (const replica of [1, 2]) {
      for (const name of ['short.exportgrid', 'chi2exps.log']) {
        const path = ['nnfit', `replica_${replica}`, name];
        expect(await readFile(fitFile(resumedFolder, ...path), 'utf8')).toBe(
          await readFile(fitFile(whole, ...path), 'utf8'),
        );
      }
    }
    /** The summary without what differs between runs: the folder and the timings. */
    const summary = async (output: string) => {
      const text = await readFile(fitFile(output, 'summary.json'), 'utf8');
      const fields = JSON.parse(text) as Record<string, unknown>;
      delete fields.folder;
      delete fields.seconds;
      return fields;
    };
    expect(await summary(resumedFolder)).toEqual(await summary(whole));
  });

  it('should refuse to resume without a checkpoint or from another fit', async () => {
    const { folder, runcard } = await shortRuncard(20);
    const empty = join(folder, 'empty');
    const missing = await run('fit', runcard, ...FIT, '--output', empty, '--resume');
    expect(missing.code).toBe(1);
    expect(missing.error).toContain(
      `partonfit fit: ${fitFile(empty, 'checkpoint_replicas_1-2.h5')}: no checkpoint to resume from`,
    );
    expect(await checkpointedFit(runcard, folder)).toBe(20);
    const otherReplicas = await run(
      'fit',
      runcard,
      ...FIT,
      '--replicas',
      '1',
      '--output',
      folder,
      '--resume',
    );
    expect(otherReplicas.code).toBe(1);
    expect(otherReplicas.error).toContain(
      `${fitFile(folder, 'checkpoint_replicas_1.h5')}: no checkpoint to resume from`,
    );
    expect(otherReplicas.error).toContain(
      'the fit folder has checkpoints of other replicas (checkpoint_replicas_1-2.h5)',
    );
    // Another runcard of the same name, hence the same fit folder.
    await mkdir(join(folder, 'other'));
    const longer = join(folder, 'other', 'short.yml');
    await writeFile(longer, (await readFile(runcard, 'utf8')).replace('epochs: 20', 'epochs: 30'));
    const otherRuncard = await run('fit', longer, ...FIT, '--output', folder, '--resume');
    expect(otherRuncard.code).toBe(1);
    expect(otherRuncard.error).toContain('runcard_sha256: the checkpoint belongs to another fit');
    const badEvery = await run('fit', runcard, '--checkpoint-every', '0');
    expect(badEvery.code).toBe(2);
    expect(badEvery.error).toContain("--checkpoint-every: expected a positive integer, got '0'");
  });
});
