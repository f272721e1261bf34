import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointFile } from '@partonfit/fit-folder';
import {
  arrayJobScript,
  failedScanTaskMarker,
  failedTaskMarker,
  postfitJobScript,
  scanJobScript,
  slurmFolder,
  type JobScriptSettings,
  type ScanScriptSettings,
} from './sbatch-scripts.js';

async function settings(partonfit: readonly string[]): Promise<JobScriptSettings> {
  const output = await mkdtemp(join(tmpdir(), 'partonfit-sbatch-'));
  const fitFolder = join(output, 'closure');
  await mkdir(slurmFolder(fitFolder), { recursive: true });
  return {
    fit: 'closure',
    fitFolder,
    runcardFile: '/runcards/closure.yml',
    outputFolder: output,
    tasks: [
      [1, 2],
      [3, 4],
    ],
    partonfit,
    fitOptions: ['--backend', 'native'],
    postfitOptions: ['--chi2-threshold', '3'],
    partition: 'gpu',
    time: '12:00:00',
    gpusPerTask: 1,
    extraSbatch: ["--account=nnpdf's"],
  };
}

/** Runs an array script as SLURM would run task `task`, outside SLURM. */
function runTask(script: string, task: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      'bash',
      ['-c', script],
      { env: { ...process.env, SLURM_ARRAY_TASK_ID: String(task), SLURM_ARRAY_JOB_ID: '7' } },
      (error, stdout) => {
        resolve({ code: error === null ? 0 : Number(error.code), out: stdout });
      },
    );
    child.stdin?.end();
  });
}

describe('arrayJobScript', () => {
  it('should ask SLURM for a requeueable array signalled before its time limit', async () => {
    const script = arrayJobScript(await settings(['partonfit']));
    expect(script.split('\n').filter((line) => line.startsWith('#SBATCH'))).toEqual([
      '#SBATCH --job-name=partonfit-closure',
      '#SBATCH --array=0-1',
      '#SBATCH --ntasks=1',
      expect.stringMatching(/^#SBATCH --output=.*\/closure\/slurm\/task_%A_%a\.log$/),
      '#SBATCH --open-mode=append',
      '#SBATCH --requeue',
      '#SBATCH --signal=B:TERM@120',
      '#SBATCH --partition=gpu',
      '#SBATCH --time=12:00:00',
      '#SBATCH --gpus-per-task=1',
      "#SBATCH --account=nnpdf's",
    ]);
  });

  it("should run the task's range, with --resume once its checkpoint exists", async () => {
    const job = await settings(['echo']);
    const script = arrayJobScript(job);
    const first = await runTask(script, 1);
    expect(first.code).toBe(0);
    expect(first.out.split('\n')).toContain(
      `fit /runcards/closure.yml --output ${job.outputFolder} --backend native --replicas 3-4`,
    );
    await writeFile(checkpointFile(job.fitFolder, [3, 4]), '');
    const requeued = await runTask(script, 1);
    expect(requeued.out.split('\n')).toContain(
      `fit /runcards/closure.yml --output ${job.outputFolder} --backend native --replicas 3-4 --resume`,
    );
  });

  it("should record a failed task's exit code and clear it when the task runs again", async () => {
    const failing = await settings(['bash', '-c', 'exit 3', 'partonfit']);
    const code = (await runTask(arrayJobScript(failing), 0)).code;
    expect(code).toBe(3);
    const marker = failedTaskMarker(failing.fitFolder, [1, 2]);
    expect(await readFile(marker, 'utf8')).toBe('3\n');
    const succeeding = { ...failing, partonfit: ['true'] };
    expect((await runTask(arrayJobScript(succeeding), 0)).code).toBe(0);
    await expect(readFile(marker, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('postfitJobScript', () => {
  it('should run postfit and the report on the fit folder without asking for GPUs', async () => {
    const job = await settings(['partonfit']);
    const script = postfitJobScript(job);
    expect(script).toContain(
      `set -eu\npartonfit postfit ${job.fitFolder} --chi2-threshold 3\npartonfit report ${job.fitFolder}\n`,
    );
    expect(script).toContain('#SBATCH --partition=gpu');
    expect(script).not.toContain('--gpus-per-task');
  });
});

describe('scanJobScript', () => {
  async function scanSettings(partonfit: readonly string[]): Promise<ScanScriptSettings> {
    const output = await mkdtemp(join(tmpdir(), 'partonfit-sbatch-scan-'));
    const scanFolder = join(output, 'scan');
    await mkdir(slurmFolder(scanFolder), { recursive: true });
    return {
      scan: 'scan',
      scanFolder,
      runcardFile: '/runcards/scan.yml',
      outputFolder: output,
      tasks: 3,
      partonfit,
      trials: 20,
      trialsPerModel: 8,
      replicas: 2,
      sampler: 'tpe',
      hyperoptOptions: ['--backend', 'native'],
      partition: 'gpu',
      time: '2:00:00',
      gpusPerTask: 1,
      extraSbatch: ['--account=nnpdf'],
    };
  }

  it("should ask SLURM for a requeueable array with the requests a fit's array carries", async () => {
    const scan = await scanSettings(['partonfit']);
    const script = scanJobScript(scan);
    expect(script.split('\n').filter((line) => line.startsWith('#SBATCH'))).toEqual([
      '#SBATCH --job-name=partonfit-hyperopt-scan',
      '#SBATCH --array=0-2',
      '#SBATCH --ntasks=1',
      `#SBATCH --output=${scan.scanFolder}/slurm/task_%A_%a.log`,
      '#SBATCH --open-mode=append',
      '#SBATCH --requeue',
      '#SBATCH --signal=B:TERM@120',
      '#SBATCH --partition=gpu',
      '#SBATCH --time=2:00:00',
      '#SBATCH --gpus-per-task=1',
      '#SBATCH --account=nnpdf',
    ]);
    expect(script).toContain(
      '3 task(s) sharing the 20 trial(s) of\n# /runcards/scan.yml, 3 batch(es) of 8, in',
    );
  });

  it('should run the same joining hyperopt command in every task', async () => {
    const scan = await scanSettings(['echo']);
    const script = scanJobScript(scan);
    for (const task of [0, 2]) {
      const { code, out } = await runTask(script, task);
      expect(code).toBe(0);
      expect(out.split('\n')).toEqual([
        `partonfit scan task ${task} of job 7`,
        `hyperopt /runcards/scan.yml --trials 20 --trials-per-model 8 --replicas 2 --sampler tpe --output ${scan.outputFolder} --join --backend native`,
        '',
      ]);
    }
  });

  it("should record a failed task's exit code by job and task and clear it when it runs again", async () => {
    const failing = await scanSettings(['bash', '-c', 'exit 4', 'partonfit']);
    expect((await runTask(scanJobScript(failing), 1)).code).toBe(4);
    const marker = failedScanTaskMarker(failing.scanFolder, '7', 1);
    expect(marker).toBe(join(failing.scanFolder, 'slurm', 'failed_task_7_1'));
    expect(await readFile(marker, 'utf8')).toBe('4\n');
    expect((await runTask(scanJobScript({ ...failing, partonfit: ['true'] }), 1)).code).toBe(0);
    await expect(readFile(marker, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
