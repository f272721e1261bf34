import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRIALS_PER_MODEL, loadRuncard, runcardDigest } from '@partonfit/core';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { scanFiles } from '../scan/scan-files.js';
import { readScanSubmissions } from '../tasks/scan-tasks.js';
import { submitScan, type ScanSubmitRequest } from './submit-scan.js';

const HYPEROPT_RUNCARD = fileURLToPath(
  new URL('../../../../examples/hyperopt.yml', import.meta.url),
);

/** The example scan runcard copied as `<name>.yml`, with text replacements. */
async function scanRuncard(
  name: string,
  replacements: readonly (readonly [string, string])[] = [],
): Promise<{ folder: string; runcardFile: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-submit-scan-'));
  const runcardFile = join(folder, `${name}.yml`);
  let text = await readFile(HYPEROPT_RUNCARD, 'utf8');
  for (const [from, to] of replacements) text = text.replace(from, to);
  await writeFile(runcardFile, text);
  return { folder, runcardFile };
}

async function request(
  runcardFile: string,
  folder: string,
  more: Partial<ScanSubmitRequest> = {},
): Promise<ScanSubmitRequest> {
  return {
    runcard: (await loadRuncard(runcardFile)).runcard,
    runcardFile,
    outputFolder: join(folder, 'scans'),
    partonfit: ['partonfit'],
    trials: 20,
    tasks: 4,
    ...more,
  };
}

describe('submitScan', () => {
  // A fake sbatch on the PATH: it records its arguments and answers as `sbatch --parsable` does.
  const path = process.env.PATH;
  let calls: string;
  beforeAll(async () => {
    const bin = await mkdtemp(join(tmpdir(), 'partonfit-fake-sbatch-'));
    calls = join(bin, 'calls');
    await writeFile(join(bin, 'sbatch'), `#!/bin/sh\necho "$@" >> ${calls}\necho '4242;cluster'\n`);
    await chmod(join(bin, 'sbatch'), 0o755);
    process.env.PATH = `${bin}:${path ?? ''}`;
  });
  afterAll(() => {
    process.env.PATH = path;
  });

  it('should return the script on a dry run and write nothing', async () => {
    const { folder, runcardFile } = await scanRuncard('dry');
    const submitted = await submitScan(
      await request(runcardFile, folder, { trialsPerModel: 3, dryRun: true }),
    );
    const scanFolder = join(folder, 'scans', 'dry');
    expect(submitted).toMatchObject({ scanFolder, tasks: 4, batches: 7, job: undefined });
    expect(submitted.script.file).toBe(join(scanFolder, 'slurm', 'scan-array.sbatch'));
    expect(submitted.script.text).toContain(
      `partonfit hyperopt ${runcardFile} --trials 20 --trials-per-model 3 --replicas 1 --sampler tpe --output ${join(folder, 'scans')} --join &\n`,
    );
    await expect(readFile(submitted.script.file)).rejects.toThrow(/ENOENT/);
  });

  it('should train a new scan in batches of DEFAULT_TRIALS_PER_MODEL without the option', async () => {
    const { folder, runcardFile } = await scanRuncard('fresh');
    const submitted = await submitScan(await request(runcardFile, folder, { dryRun: true }));
    expect(DEFAULT_TRIALS_PER_MODEL).toBe(16);
    expect(submitted.batches).toBe(2);
    expect(submitted.script.text).toContain('--trials 20 --trials-per-model 16 ');
  });

  it('should write the runcard and the script, submit the array and record the submission', async () => {
    const { folder, runcardFile } = await scanRuncard('cluster');
    const submitted = await submitScan(
      await request(runcardFile, folder, {
        replicas: 2,
        sampler: 'random',
        hyperoptOptions: ['--backend', 'cpu'],
        partition: 'short',
      }),
    );
    expect(submitted.job).toBe('4242');
    const { scanFolder } = submitted;
    expect(await readFile(scanFiles(scanFolder).runcard, 'utf8')).toBe(
      await readFile(runcardFile, 'utf8'),
    );
    expect(await readFile(submitted.script.file, 'utf8')).toBe(submitted.script.text);
    expect(submitted.script.text).toContain('#SBATCH --partition=short\n');
    expect((await readFile(calls, 'utf8')).trim().split('\n').at(-1)).toBe(
      `--parsable ${submitted.script.file}`,
    );
    const [submission, ...more] = await readScanSubmissions(scanFolder);
    expect(more).toEqual([]);
    expect(submission).toMatchObject({
      runcardFile,
      outputFolder: join(folder, 'scans'),
      trials: 20,
      trialsPerModel: 16,
      replicas: 2,
      sampler: 'random',
      tasks: 4,
      hyperoptOptions: ['--backend', 'cpu'],
      jobs: { array: '4242' },
    });
    // Submitting again adds tasks to the same scan.
    await submitScan(await request(runcardFile, folder, { replicas: 2, sampler: 'random' }));
    expect(await readScanSubmissions(scanFolder)).toHaveLength(2);
  });

  it('should refuse a runcard without kfold and hyperscan_config, naming both', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-submit-scan-'));
    await expect(submitScan(await request(CLOSURE_RUNCARD, folder))).rejects.toMatchObject({
      name: 'RuncardError',
      issues: [
        { keyPath: 'hyperscan_config', problem: expect.stringContaining('search space') as string },
        { keyPath: 'kfold', problem: expect.stringContaining('kfold.partitions') as string },
      ],
    });
  });

  it('should refuse the phi2 loss with one replica', async () => {
    const { folder, runcardFile } = await scanRuncard('phi', [
      ['loss_type: chi2', 'loss_type: phi2'],
    ]);
    await expect(submitScan(await request(runcardFile, folder))).rejects.toMatchObject({
      issues: [{ keyPath: 'kfold.loss_type' }],
    });
    await expect(
      submitScan(await request(runcardFile, folder, { replicas: 2, dryRun: true })),
    ).resolves.toMatchObject({ tasks: 4 });
  });

  it('should refuse fewer than one task and no trials, naming the option', async () => {
    const { folder, runcardFile } = await scanRuncard('counts');
    await expect(submitScan(await request(runcardFile, folder, { tasks: 0 }))).rejects.toThrow(
      '--tasks: expected a positive integer, got 0',
    );
    await expect(submitScan(await request(runcardFile, folder, { trials: 2.5 }))).rejects.toThrow(
      '--hyperopt: expected a positive integer, got 2.5',
    );
  });

  it('should refuse a folder whose scan the tasks could not join', async () => {
    const { folder, runcardFile } = await scanRuncard('joined');
    const scanFolder = join(folder, 'scans', 'joined');
    const files = scanFiles(scanFolder);
    await mkdir(files.batches, { recursive: true });
    const { runcard } = await loadRuncard(runcardFile);
    const settings = {
      runcardSha256: runcardDigest(runcard),
      trials_per_model: 4,
      replicas: 1,
      sampler: 'tpe',
      seed: 42,
      one_fold_per_model: false,
      trials: 12,
    };
    await writeFile(files.settings, JSON.stringify(settings));
    await expect(
      submitScan(await request(runcardFile, folder, { trialsPerModel: 8 })),
    ).rejects.toThrow(
      `${files.settings}: trials_per_model: the scan in the folder has --trials-per-model 4, this submission 8: submit with --trials-per-model 4 to continue it, or choose another --output`,
    );
    await expect(
      submitScan(await request(runcardFile, folder, { trialsPerModel: 4, dryRun: true })),
    ).resolves.toMatchObject({ batches: 5 });
    // without the option the folder's own number: 20 trials in batches of 4
    const again = await submitScan(await request(runcardFile, folder, { dryRun: true }));
    expect(again.batches).toBe(5);
    expect(again.script.text).toContain('--trials 20 --trials-per-model 4 ');
    await writeFile(files.settings, JSON.stringify({ ...settings, runcardSha256: '0'.repeat(64) }));
    await expect(
      submitScan(await request(runcardFile, folder, { trialsPerModel: 4 })),
    ).rejects.toThrow(
      `${files.settings}: runcardSha256: the folder holds a scan of another runcard`,
    );
  });

  it('should refuse a folder holding another runcard before its scan started', async () => {
    const { folder, runcardFile } = await scanRuncard('other');
    const scanFolder = join(folder, 'scans', 'other');
    await mkdir(scanFolder, { recursive: true });
    await writeFile(
      scanFiles(scanFolder).runcard,
      (await readFile(runcardFile, 'utf8')).replace('trvlseed: 3', 'trvlseed: 4'),
    );
    await expect(submitScan(await request(runcardFile, folder))).rejects.toThrow(
      `${scanFiles(scanFolder).runcard}: trvlseed: the folder holds another runcard (4 there, 3 in this one)`,
    );
  });
});
