import { loadRuncard } from '@partonfit/core';
import { prepareFitInputs } from '@partonfit/fktables';
import { describeOnBackends } from '@partonfit/testing';
import { beforeAll, expect, it } from 'vitest';
import { trialOutcome, type KfoldSettings, type TrialLoss } from '../loss/trial-loss.js';
import { scanInputLayout, slotBatch } from '../slots/slot-batch.js';
import { foldData, type FoldData } from './fold-data.js';
import { writeScanRuncard } from './scan.fixture.js';
import { trainBatch, type TrainedFold } from './train-batch.js';

/** Three trials: two in one network group (widths differ), one under Adam with sigmoid. */
const TRIALS: Record<string, unknown>[] = [
  { nodes_per_layer: [20, 8], activation_per_layer: ['tanh', 'linear'], epochs: 30 },
  {
    nodes_per_layer: [12, 8],
    activation_per_layer: ['tanh', 'linear'],
    epochs: 45,
    stopping_patience: 0.3,
    optimizer: { optimizer_name: 'Nadam', learning_rate: 4e-3, clipnorm: 1e-5 },
  },
  {
    nodes_per_layer: [15, 10, 8],
    activation_per_layer: ['sigmoid', 'sigmoid', 'linear'],
    epochs: 40,
    optimizer: { optimizer_name: 'Adam', learning_rate: 8e-3, clipnorm: 1e-5 },
    positivity: { initial: 2, multiplier: 1.2 },
  },
];

interface Scan {
  text: string;
  runcard: string;
  settings: KfoldSettings;
  inputs: Awaited<ReturnType<typeof prepareFitInputs>>['inputs'];
  folds: FoldData[];
}

function lossOf(folds: readonly TrainedFold[], trial: number, settings: KfoldSettings): TrialLoss {
  const outcome = trialOutcome(
    folds.filter((fold) => fold.trial === trial),
    settings,
  );
  if ('failure' in outcome) throw new Error(outcome.failure);
  return outcome;
}

describeOnBackends(
  'a batch of trials trained as one model',
  () => {
    const scan = {} as Scan;
    const replicas = 2;
    beforeAll(async () => {
      const written = await writeScanRuncard('batch', [30, 45]);
      const { runcard } = await loadRuncard(written.runcard);
      const layout = scanInputLayout(runcard, replicas);
      const { inputs } = await prepareFitInputs(runcard, {
        runcardFile: written.runcard,
        replicas: layout.replicas,
        folds: layout.folds,
        cacheFolder: null,
      });
      Object.assign(scan, {
        text: written.text,
        runcard: written.runcard,
        settings: runcard.kfold,
        inputs,
        folds: foldData(inputs),
      });
    });

    it('gives each trial the loss it has alone, and alone on each fold as n3fit trains it', async () => {
      const options = () => ({ inputs: scan.inputs, foldData: scan.folds, replicas });
      const together = await trainBatch(
        slotBatch(scan.text, scan.runcard, TRIALS, replicas),
        scan.settings,
        options(),
      );
      expect(together.folds).toHaveLength(TRIALS.length * 3);
      for (const [trial, entry] of TRIALS.entries()) {
        const alone = await trainBatch(
          slotBatch(scan.text, scan.runcard, [entry], replicas),
          scan.settings,
          options(),
        );
        const inBatch = lossOf(together.folds, trial, scan.settings);
        const single = lossOf(alone.folds, 0, scan.settings);
        expect(Number.isFinite(inBatch.loss)).toBe(true);
        expect(Math.abs(inBatch.loss - single.loss) / single.loss).toBeLessThan(1e-5);
        inBatch.foldLosses.forEach((loss, k) => {
          expect(Math.abs(loss - (single.foldLosses[k] ?? Number.NaN)) / loss).toBeLessThan(1e-5);
        });
      }
      // n3fit's way: one model per fold of the last trial
      const byFold = [];
      for (let k = 0; k < 3; k++) {
        const one = await trainBatch(
          slotBatch(scan.text, scan.runcard, [TRIALS[2]], replicas, [k]),
          scan.settings,
          options(),
        );
        byFold.push(...one.folds);
      }
      const sequential = lossOf(byFold, 0, scan.settings).loss;
      const inBatch = lossOf(together.folds, 2, scan.settings).loss;
      expect(Math.abs(inBatch - sequential) / sequential).toBeLessThan(1e-5);
      // the trials differ: the batch does not give every trial one loss
      const losses = TRIALS.map((_, t) => lossOf(together.folds, t, scan.settings).loss);
      expect(new Set(losses.map((loss) => loss.toPrecision(6))).size).toBe(TRIALS.length);
    });

    it("stops a trial's later folds once a fold ends it, and gives it the loss it has one fold at a time", async () => {
      // early stopping ends the folds at different read-backs (every 100 epochs)
      const stopping = [1e-2, 3e-2, 1e-1].map((learningRate) => ({
        nodes_per_layer: [12, 8],
        activation_per_layer: ['tanh', 'linear'],
        epochs: 500,
        stopping_patience: 0.02,
        optimizer: { optimizer_name: 'Nadam', learning_rate: learningRate, clipnorm: 1e-5 },
      }));
      // patience counts from the first epoch (n3fit counts it once the training χ² is below this)
      const text = scan.text.replace(/threshold_chi2: [\d.]+/, 'threshold_chi2: 1.0e+6');
      expect(text).toContain('threshold_chi2: 1.0e+6');
      // how many rows left the model before its last read-back (their χ² then NaN)
      const leftEarly = async (settings: KfoldSettings) => {
        let last: Float32Array = new Float32Array();
        const batch = await trainBatch(slotBatch(text, scan.runcard, stopping, 1), settings, {
          inputs: scan.inputs,
          foldData: scan.folds,
          replicas: 1,
          onProgress: (progress) => {
            last = progress.validationChi2PerPoint;
          },
        });
        return { batch, left: last.filter((chi2) => Number.isNaN(chi2)).length };
      };
      // a threshold every fold is above: each trial ends on its first fold
      const endsAtOnce = { ...scan.settings, threshold: 0 };
      const early = await leftEarly(endsAtOnce);
      const full = await leftEarly({ ...scan.settings, threshold: Number.POSITIVE_INFINITY });
      // a fold that stopped early took its trial's later folds with it
      expect(early.left).toBeGreaterThan(full.left);
      for (const [trial, entry] of stopping.entries()) {
        const first = await trainBatch(slotBatch(text, scan.runcard, [entry], 1, [0]), endsAtOnce, {
          inputs: scan.inputs,
          foldData: scan.folds,
          replicas: 1,
        });
        const alone = lossOf(first.folds, 0, endsAtOnce);
        const inBatch = lossOf(early.batch.folds, trial, endsAtOnce);
        expect(alone.thresholdFold).toBe(0);
        expect(inBatch).toEqual(alone);
      }
    });

    it('fails a trial whose replicas all diverge, naming why, and measures the others', async () => {
      const diverging = {
        nodes_per_layer: [10, 8],
        activation_per_layer: ['square', 'linear'],
        epochs: 30,
        optimizer: { optimizer_name: 'SGD', learning_rate: 1e30, clipnorm: 1e30 },
      };
      const batch = await trainBatch(
        slotBatch(scan.text, scan.runcard, [TRIALS[0], diverging], replicas),
        scan.settings,
        { inputs: scan.inputs, foldData: scan.folds, replicas },
      );
      const failed = trialOutcome(
        batch.folds.filter((fold) => fold.trial === 1),
        scan.settings,
      );
      expect(failed).toEqual({
        failure: expect.stringMatching(
          /^every replica of fold 1 diverged \(its loss stopped being finite at epoch \d+, \d+\) before a best epoch$/,
        ) as string,
      });
      expect(Number.isFinite(lossOf(batch.folds, 0, scan.settings).loss)).toBe(true);
    });
  },
  ['wasm', 'native'],
);
