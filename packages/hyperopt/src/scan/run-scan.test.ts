import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DEFAULT_TRIALS_PER_MODEL,
  InputFileError,
  loadRuncard,
  readTriesFile,
  RuncardError,
} from '@partonfit/core';
import { TrainingInterruptedError } from '@partonfit/trainer';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { runScan, type ScanRequest } from './run-scan.js';
import type { TrialDocument } from '../tries/trial-document.js';
import { writeScanRuncard } from './scan.fixture.js';

/** What a trial's document says, without the times. */
function trialsOf(text: string) {
  return (JSON.parse(text) as TrialDocument[]).map((trial) => ({
    tid: trial.tid,
    vals: trial.misc.vals,
    loss: trial.result.loss,
    status: trial.result.status,
    folds: trial.result.kfold_meta.fold_losses,
  }));
}

describeOnBackends(
  'a scan, killed and resumed',
  () => {
    it('writes tries.json as n3fit does and resumes to the same trials as an uninterrupted scan', async () => {
      // every trial passes the threshold after so few epochs
      const { folder, runcard } = await writeScanRuncard(
        'resumed',
        [20, 30],
        [['threshold: 50', 'threshold: 1.0e6']],
      );
      const request = (output: string): ScanRequest => ({
        runcardFile: runcard,
        trials: 6,
        trialsPerModel: 2,
        outputFolder: join(folder, output),
      });
      const whole = await runScan(request('whole'));
      expect(whole.trials).toBe(6);
      expect(whole.batchesTrained).toBe(3);
      const tries = await readTriesFile(whole.triesFile);
      expect(tries.trials.map((trial) => trial.tid)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(tries.trials.every((trial) => trial.state === 2)).toBe(true);
      const best = tries.trials
        .filter((trial) => trial.status === 'ok')
        .reduce((a, b) => (b.loss < a.loss ? b : a));
      expect(whole.best?.tid).toBe(best.tid);
      expect(whole.best?.loss).toBe(best.loss);

      // killed at the first step of its second batch (the signal comes when the first batch's
      // trials are written): those trials are kept
      const stop = new AbortController();
      const killed = runScan({
        ...request('killed'),
        signal: stop.signal,
        report: (line) => {
          if (line.startsWith('batch 1/')) stop.abort('SIGTERM');
        },
      });
      await expect(killed).rejects.toSatisfy((error) => TrainingInterruptedError.isInstance(error));
      const partial = trialsOf(
        await readFile(join(folder, 'killed', 'resumed', 'hyperopt', 'tries.json'), 'utf8'),
      );
      expect(partial.map((trial) => trial.tid)).toEqual([0, 1]);
      await expect(runScan(request('killed'))).rejects.toThrow(
        /already holds this scan: pass --resume/,
      );
      const resumed = await runScan({ ...request('killed'), resume: true });
      expect(resumed.batchesTrained).toBe(2);
      expect(trialsOf(await readFile(resumed.triesFile, 'utf8'))).toEqual(
        trialsOf(await readFile(whole.triesFile, 'utf8')),
      );
      // TPE suggested batches 2 and 3 from the trials before them: not a random draw again
      const random = await runScan({ ...request('random'), sampler: 'random' });
      const first = (text: string) => trialsOf(text).slice(0, 2);
      expect(first(await readFile(random.triesFile, 'utf8'))).toEqual(
        first(await readFile(whole.triesFile, 'utf8')),
      );
      expect(trialsOf(await readFile(random.triesFile, 'utf8'))[2]?.vals).not.toEqual(
        trialsOf(await readFile(whole.triesFile, 'utf8'))[2]?.vals,
      );

      // a fit takes its replicas' hyperparameters from the scan (trial_specs)
      const fitRuncard = join(folder, 'from-scan.yml');
      const scanText = (await readFile(runcard, 'utf8')).replace(
        /\nparameters:\n(?: {2}.*\n)+/,
        '\nparameters:\n  threshold_chi2: 5.0\n',
      );
      await writeFile(
        fitRuncard,
        `${scanText}\ntrial_specs:\n  hyperscan: ${whole.folder}\n  number_of_trials: 2\n`,
      );
      const fit = await loadRuncard(fitRuncard);
      expect(fit.hyperscan?.file).toBe(whole.triesFile);
      // replica r takes the trial of rank r mod 2: replica 2 the best
      expect(fit.hyperscan?.trials[1]?.trial.tid).toBe(best.tid);
    });

    it('refuses a runcard without kfold, naming the key', async () => {
      const { folder, runcard } = await writeScanRuncard(
        'no-kfold',
        [20, 30],
        [[/kfold:\n(?: {2}.*\n)+/, '']],
      );
      const scan = runScan({ runcardFile: runcard, trials: 2, outputFolder: folder });
      await expect(scan).rejects.toThrow(RuncardError);
      await expect(scan).rejects.toThrow(/kfold: a scan needs kfold.partitions/);
    });

    it('extends a scan by whole batches only', async () => {
      const { folder, runcard } = await writeScanRuncard('extended', [20, 30]);
      const request = { runcardFile: runcard, trialsPerModel: 2, outputFolder: folder };
      const short = await runScan({ ...request, trials: 1 });
      // the finished batch keeps its claim: no process can claim it again
      expect((await readdir(join(short.folder, 'hyperopt', 'batches'))).sort()).toEqual([
        'batch_0000.claim',
        'batch_0000.json',
      ]);
      const extended = runScan({ ...request, trials: 3, resume: true });
      await expect(extended).rejects.toThrow(InputFileError);
      await expect(extended).rejects.toThrow(
        /batch_0000\.json: this batch finished with 1 trial\(s\) and the scan now asks for 2 in it/,
      );
    });

    it('continues a scan with the trials per model it began with; a new one takes 16', async () => {
      const { folder, runcard } = await writeScanRuncard('per-model', [20, 30]);
      const settingsOf = async (scanFolder: string) =>
        JSON.parse(await readFile(join(scanFolder, 'hyperopt', 'scan.json'), 'utf8')) as {
          trials_per_model: number;
        };
      const begun = await runScan({
        runcardFile: runcard,
        trials: 1,
        trialsPerModel: 1,
        outputFolder: join(folder, 'begun'),
      });
      // resumed without --trials-per-model: one more batch of one trial, not a refusal
      const resumed = await runScan({
        runcardFile: runcard,
        trials: 2,
        outputFolder: join(folder, 'begun'),
        resume: true,
      });
      expect({ trials: resumed.trials, batches: resumed.batchesTrained }).toEqual({
        trials: 2,
        batches: 1,
      });
      expect((await settingsOf(begun.folder)).trials_per_model).toBe(1);
      const fresh = await runScan({ runcardFile: runcard, trials: 1, outputFolder: folder });
      expect((await settingsOf(fresh.folder)).trials_per_model).toBe(DEFAULT_TRIALS_PER_MODEL);
      expect(DEFAULT_TRIALS_PER_MODEL).toBe(16);
    });

    it('refuses the folder of another scan', async () => {
      const { folder, runcard } = await writeScanRuncard('other', [20, 30]);
      await runScan({ runcardFile: runcard, trials: 1, trialsPerModel: 1, outputFolder: folder });
      const other = runScan({
        runcardFile: runcard,
        trials: 1,
        trialsPerModel: 1,
        replicas: 2,
        outputFolder: folder,
        resume: true,
      });
      await expect(other).rejects.toThrow(InputFileError);
      await expect(other).rejects.toThrow(/another runcard or other settings/);
    });
  },
  ['wasm'],
);
