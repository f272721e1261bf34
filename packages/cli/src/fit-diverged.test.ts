import { access, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeClosureRuncard } from '@partonfit/testing';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

/**
 * The embedded closure runcard trained far too hard (SGD, no clipnorm) in a fresh folder: with
 * ReLU layers and learning rate 7e5 replicas 1, 2 and 4 diverge at once while 3, 5 and 6 stay
 * finite; with linear layers and learning rate 1e10 every replica diverges.
 */
async function divergingRuncard(
  name: string,
  settings: { activation: string; learningRate: string; epochs: number },
): Promise<{ folder: string; runcard: string }> {
  return writeClosureRuncard(name, {
    epochs: settings.epochs,
    replacements: [
      ['[tanh, tanh, linear]', `[${settings.activation}, ${settings.activation}, linear]`],
      ['optimizer_name: Nadam', 'optimizer_name: SGD'],
      ['learning_rate: 1.0e-3', `learning_rate: ${settings.learningRate}`],
      [/ {4}clipnorm: .*\n/, ''],
    ],
  });
}

interface Summary {
  passed: number[];
  vetoed: number[];
  diverged: { replica: number; epoch: number; bestEpoch: number | null }[];
  experimentalChi2: (number | null)[];
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('partonfit fit with diverging replicas', () => {
  it('should write the finite replicas as if fitted alone and name the diverged ones', async () => {
    const { folder, runcard } = await divergingRuncard('diverge', {
      activation: 'relu',
      learningRate: '7.0e5',
      epochs: 30,
    });
    const output = join(folder, 'together');
    const fit = await fitOnCpu(runcard, '1-6', output);
    expect(fit.error).not.toContain('partonfit fit:');
    expect(fit.code).toBe(0);
    expect(fit.out).toContain('replicas diverged: 3 (1-2,4), not kept by postfit:');
    expect(fit.out).toContain(
      'replica 4: loss not finite at epoch 2; no best epoch, no PDF written',
    );
    expect(fit.out).not.toContain('NaN');
    const fitFolder = join(output, 'diverge');
    const summary = JSON.parse(await readFile(join(fitFolder, 'summary.json'), 'utf8')) as Summary;
    expect(summary.diverged).toEqual(
      [1, 2, 4].map((replica) => ({ replica, epoch: replica === 4 ? 2 : 1, bestEpoch: null })),
    );
    expect(summary.vetoed).toEqual([3, 5, 6]);
    expect(summary.experimentalChi2.map((chi2) => chi2 === null)).toEqual([
      true,
      true,
      false,
      true,
      false,
      false,
    ]);
    for (const replica of [1, 2, 4]) {
      const replicaFolder = join(fitFolder, 'nnfit', `replica_${replica}`);
      expect((await readdir(replicaFolder)).sort()).toEqual(['chi2exps.log', 'diverge.json']);
      const json = JSON.parse(await readFile(join(replicaFolder, 'diverge.json'), 'utf8')) as {
        stop_epoch: number;
        best_epoch: number;
        diverged_epoch: number;
        pos_state: string;
      };
      const epoch = replica === 4 ? 2 : 1;
      expect(json).toMatchObject({
        stop_epoch: epoch,
        best_epoch: epoch - 1,
        diverged_epoch: epoch,
        pos_state: 'POS_VETO',
      });
    }
    for (const replica of [3, 5, 6]) {
      const alone = join(folder, `alone-${replica}`);
      const single = await fitOnCpu(runcard, `${replica}`, alone);
      expect(single.code).toBe(0);
      const file = join('diverge', 'nnfit', `replica_${replica}`, 'diverge.exportgrid');
      expect(await readFile(join(output, file), 'utf8')).toBe(
        await readFile(join(alone, file), 'utf8'),
      );
    }
    const postfit = await run('postfit', fitFolder);
    expect(postfit.out).toContain('6 total replicas found, 3 valid, 3 diverged');
    expect(postfit.out).toContain('diverged replica 2: its loss stopped being finite at epoch 1');
    // The finite replicas never crossed the χ² threshold: nothing is left to select.
    expect(postfit.error).toContain('0 of 3 valid replicas pass the vetoes');
    expect(postfit.code).toBe(1);
    const resumed = await fitOnCpu(runcard, '1-6', output, '--resume');
    expect(resumed.error).toContain('resuming from');
    expect(resumed.code).toBe(0);
    expect(resumed.out).toContain('replicas diverged: 3 (1-2,4)');
  });

  it('should fail with advice, and consistent epochs, when every replica diverges', async () => {
    const { folder, runcard } = await divergingRuncard('blowup', {
      activation: 'linear',
      learningRate: '1.0e10',
      epochs: 20,
    });
    const fit = await fitOnCpu(runcard, '1-2', folder);
    expect(fit.code).toBe(1);
    expect(fit.out).toContain('replicas passed: 0 (none), vetoed: 0');
    expect(fit.out).toContain('χ²/n per replica against the data: n/a');
    expect(fit.out).not.toMatch(/NaN|χ²\/n of the replica average/);
    expect(fit.error).toContain(
      'partonfit fit: every replica diverged (its loss stopped being finite); lower the learning rate or set a clipnorm in',
    );
    for (const replica of [1, 2]) {
      const json = JSON.parse(
        await readFile(
          join(folder, 'blowup', 'nnfit', `replica_${replica}`, 'blowup.json'),
          'utf8',
        ),
      ) as { stop_epoch: number; best_epoch: number; diverged_epoch: number };
      expect(json.diverged_epoch).toBe(json.stop_epoch);
      expect(json.best_epoch).toBeLessThanOrEqual(json.stop_epoch);
      expect(
        await exists(join(folder, 'blowup', 'nnfit', `replica_${replica}`, 'blowup.exportgrid')),
      ).toBe(false);
    }
  });
});
