import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trialDocument, triesJson, type FoldOutcome } from '@partonfit/hyperopt';

/** The example scan runcard: 3 partitions, chi2 loss, threshold 50. */
export const SCAN_RUNCARD = fileURLToPath(
  new URL('../../../../examples/hyperopt.yml', import.meta.url),
);

/** What a test trial differs in. */
export interface ScanTrialSketch {
  readonly tid: number;
  /** Hidden layers' units (the output layer's 8 is added). */
  readonly units: readonly number[];
  readonly activation: string;
  readonly optimizer: string;
  readonly learningRate: number;
  /** Each counted fold's loss: all three for an `ok` trial. */
  readonly foldLosses: readonly number[];
  /** The loss; for an `ok` trial the folds' average. */
  readonly loss: number;
  /** A fold above the threshold (the trial fails, its loss penalised). */
  readonly thresholdFold?: number;
  /** A failed training (no loss). */
  readonly failure?: string;
}

/**
 * Eight trials of a 3-fold scan: six ok (losses 4, 2.5, 2, 6, 2.4, 3.5), trial 2 above the
 * threshold on its first fold (60 × 3 folds = 180), trial 3 without a loss (it diverged). The
 * epochs, clipnorm, patience, initializer and positivity are the same in every trial.
 */
export const SCAN_TRIALS: readonly ScanTrialSketch[] = [
  {
    tid: 0,
    units: [20],
    activation: 'tanh',
    optimizer: 'Nadam',
    learningRate: 1e-3,
    foldLosses: [3, 4, 5],
    loss: 4,
  },
  {
    tid: 1,
    units: [15, 12],
    activation: 'sigmoid',
    optimizer: 'Adam',
    learningRate: 5e-3,
    foldLosses: [2, 2.5, 3],
    loss: 2.5,
  },
  {
    tid: 2,
    units: [25],
    activation: 'tanh',
    optimizer: 'Nadam',
    learningRate: 2e-3,
    foldLosses: [180],
    loss: 180,
    thresholdFold: 0,
  },
  {
    tid: 3,
    units: [28],
    activation: 'sigmoid',
    optimizer: 'Adam',
    learningRate: 1.5e-2,
    foldLosses: [],
    loss: Number.NaN,
    failure: 'every replica diverged in fold 2',
  },
  {
    tid: 4,
    units: [10],
    activation: 'tanh',
    optimizer: 'Adam',
    learningRate: 1e-2,
    foldLosses: [1.5, 2, 2.5],
    loss: 2,
  },
  {
    tid: 5,
    units: [30, 20],
    activation: 'tanh',
    optimizer: 'Nadam',
    learningRate: 7e-4,
    foldLosses: [5, 6, 7],
    loss: 6,
  },
  {
    tid: 6,
    units: [12],
    activation: 'sigmoid',
    optimizer: 'Nadam',
    learningRate: 3e-3,
    foldLosses: [2.2, 2.4, 2.6],
    loss: 2.4,
  },
  {
    tid: 7,
    units: [18],
    activation: 'tanh',
    optimizer: 'Adam',
    learningRate: 8e-4,
    foldLosses: [3, 3.5, 4],
    loss: 3.5,
  },
];

function fold(loss: number): FoldOutcome {
  const metrics = { chi2: loss, phi: 0.1, logp: loss / 2, chi2exp: 1.1 };
  return {
    validationLosses: [loss * 0.9],
    experimentalLosses: [loss],
    penalties: { saturation: [0], patience: [0.01] },
    heldOut: metrics,
    fitted: metrics,
  };
}

/** A sketch as the trial document `partonfit hyperopt` writes. */
export function scanDocument(sketch: ScanTrialSketch): ReturnType<typeof trialDocument> {
  const batch = Math.floor(sketch.tid / 4);
  return trialDocument({
    tid: sketch.tid,
    point: { optimizer: sketch.optimizer === 'Nadam' ? 0 : 1 },
    labels: ['optimizer', 'Nadam_learning_rate', 'Adam_learning_rate'],
    spaceValues: {
      nodes_per_layer: [...sketch.units, 8],
      activation_per_layer: sketch.activation,
      initializer: 'glorot_normal',
      optimizer: {
        optimizer_name: sketch.optimizer,
        learning_rate: sketch.learningRate,
        clipnorm: 1e-5,
      },
      epochs: 4000,
      stopping_patience: 0.1,
      threshold_chi2: 5,
      positivity: { initial: 10 },
    },
    folds:
      sketch.failure === undefined ? [0, 1, 2].map((k) => fold(sketch.foldLosses[k] ?? 70)) : [],
    outcome:
      sketch.failure === undefined
        ? {
            status: sketch.thresholdFold === undefined ? 'ok' : 'fail',
            loss: sketch.loss,
            foldLosses: sketch.foldLosses,
            thresholdFold: sketch.thresholdFold,
          }
        : { failure: sketch.failure },
    bookTime: new Date(Date.UTC(2026, 10, 28, 12, batch)),
    refreshTime: new Date(Date.UTC(2026, 10, 28, 12, batch + 1)),
    batch,
    seconds: 60 + batch,
  });
}

/**
 * A scan folder `<tmp>/hyperopt/` as `partonfit hyperopt examples/hyperopt.yml` writes it:
 * `runcard.yml`, `hyperopt/scan.json` and `hyperopt/tries.json` with `documents` (default: the
 * documents of {@link SCAN_TRIALS}), written as given when a string.
 */
export async function writeScanFolder(documents?: readonly unknown[] | string): Promise<string> {
  const folder = join(await mkdtemp(join(tmpdir(), 'partonfit-scan-report-')), 'hyperopt');
  await mkdir(join(folder, 'hyperopt'), { recursive: true });
  await copyFile(SCAN_RUNCARD, join(folder, 'runcard.yml'));
  const settings = {
    runcardSha256: 'ab12',
    trials_per_model: 4,
    replicas: 1,
    sampler: 'tpe',
    seed: 42,
    one_fold_per_model: false,
    trials: 8,
  };
  await writeFile(join(folder, 'hyperopt', 'scan.json'), `${JSON.stringify(settings, null, 1)}\n`);
  const text =
    typeof documents === 'string'
      ? documents
      : triesJson(documents ?? SCAN_TRIALS.map(scanDocument));
  await writeFile(join(folder, 'hyperopt', 'tries.json'), text);
  return folder;
}

/**
 * A trial document as upstream n3fit 4.1.5's `FileTrials` writes it with Python's `json.dumps`:
 * no `fold_losses`, the held-out χ² and φ per fold, bare `NaN`, numpy numbers as strings.
 */
export function upstreamDocumentText(tid: number, chi2: readonly number[], loss: number): string {
  return `{"state": 2, "tid": ${tid}, "spec": null, "result": {"status": "ok", "loss": ${loss}, "validation_loss": 1.5, "experimental_loss": 1.8,
 "kfold_meta": {"validation_losses": [[1.4], [1.5], [1.6]], "experimental_losses": [[1.7], [1.8], [1.9]], "hyper_losses": [[1.7], [1.8], [1.9]],
  "hyper_losses_chi2": [${chi2.join(', ')}], "hyper_losses_phi2": [NaN, 0.25, 0.5], "penalties": {"saturation": [[0.0], [0.0], [0.0]]}}},
 "misc": {"tid": ${tid}, "cmd": ["domain_attachment", "FMinIter_Domain"], "workdir": null, "idxs": {"optimizer": [${tid}]}, "vals": {"optimizer": [0]},
  "space_vals": {"activation_per_layer": "tanh", "dropout": 0.0, "epochs": "${17000 + tid}", "initializer": "glorot_normal", "layer_type": "dense",
   "nodes_per_layer": [${25 + tid}.0, 20.0, 8], "optimizer": {"clipnorm": 1e-05, "learning_rate": 0.001, "optimizer_name": "Nadam"},
   "positivity": {"initial": 10.0, "multiplier": null}, "stopping_patience": 0.1}},
 "exp_key": null, "owner": null, "version": 0, "book_time": "2024-01-01 10:00:00.000000", "refresh_time": "2024-01-01 11:00:00.000000"}`;
}
