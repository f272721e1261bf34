import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  InputFileError,
  loadRuncard,
  type FitParameters,
  type Runcard,
  type ValidatedRuncard,
} from '@partonfit/core';
import {
  fitTheoryCovariance,
  inputPaths,
  resolveRuncardDatasets,
  theoryCovarianceNeeds,
  userCovarianceLabel,
  type InputPaths,
  type ResolvedDataset,
  type RuncardDatasets,
  type TheoryCovarianceNeeds,
} from '@partonfit/fktables';
import { scanSpace, spaceLabels } from '@partonfit/hyperopt';
import { readStartingWeights } from '@partonfit/trainer';
import { defineCommand } from './define-command.js';

/**
 * `partonfit check <runcard>`: validates a runcard, resolves every dataset it names (data and FK
 * tables, so a misspelled name or a missing file is caught here, not by the fit) and shows what
 * the fit would do.
 */
export const checkCommand = defineCommand({
  name: 'check',
  summary: 'validate a runcard and show the settings a fit would use',
  usage: 'partonfit check <runcard.yml>',
  options: {},
  positionals: 1,
  run: async ({ positionals: [file] }, terminal) => {
    const validated = await loadRuncard(file);
    const { runcard, warnings } = validated;
    for (const warning of warnings) {
      terminal.error(
        `warning: ${file}:${warning.line ?? '?'}: ${warning.keyPath}: ${warning.problem}\n`,
      );
    }
    const paths = inputPaths(runcard, resolve(file));
    const datasets = await resolveRuncardDatasets(runcard, paths);
    terminal.out(describeRuncard(file, runcard, datasets));
    const theoryNeeds = theoryCovarianceNeeds(runcard, paths);
    if (theoryNeeds !== undefined) {
      terminal.out(await describeTheoryCovariance(runcard, paths, theoryNeeds, datasets.measured));
    }
    if (runcard.load !== undefined) terminal.out(await describeLoad(file, runcard, runcard.load));
    terminal.out(describeReplicaParameters(validated));
    terminal.out(describeScan(validated.runcard, file));
  },
});

/** `NAME (points), …`, or `none`. */
function namesWithPoints(datasets: readonly ResolvedDataset[]): string {
  return (
    datasets.map((dataset) => `${dataset.name} (${dataset.commonData.ndata})`).join(', ') || 'none'
  );
}

/** One replica's network, e.g. `2 → 25 → 20 → 8 (tanh, tanh, linear), glorot_normal`. */
function networkOf(parameters: FitParameters): string {
  return `2 → ${parameters.nodes_per_layer.join(' → ')} (${parameters.activation_per_layer.join(', ')}), ${parameters.initializer}`;
}

/** One replica's optimiser, e.g. `Nadam, learning rate 0.001, clipnorm 1`. */
function optimizerOf({ optimizer }: FitParameters): string {
  return `${optimizer.optimizer_name}, learning rate ${optimizer.learning_rate}, clipnorm ${optimizer.clipnorm}`;
}

/** One replica's epochs and patience, e.g. `8000, patience 800 epochs`. */
function epochsOf(parameters: FitParameters): string {
  return `${parameters.epochs}, patience ${Math.trunc(parameters.epochs * parameters.stopping_patience)} epochs`;
}

/** A positivity or integrability schedule's settings, e.g. `initial 10, multiplier 1.05`. */
function scheduleOf(settings: { initial?: number | undefined; multiplier?: number | undefined }) {
  const given = [
    ...(settings.initial === undefined ? [] : [`initial ${settings.initial}`]),
    ...(settings.multiplier === undefined ? [] : [`multiplier ${settings.multiplier}`]),
  ];
  return given.length === 0 ? 'from maxlambda' : given.join(', ');
}

/** The first replicas that take entry k of N: `k+1, k+1+N, …`. */
function replicasOfEntry(entry: number, entries: number): string {
  const first = [entry + 1, entry + 1 + entries, entry + 1 + 2 * entries];
  return entries === 1 ? 'every replica' : `replicas ${first.join(', ')}, …`;
}

/**
 * What each replica fits with, for a runcard whose replicas have parameters of their own: which
 * replicas take which entry (and, with `trial_specs`, which trial), and each entry's settings.
 */
function describeReplicaParameters({ runcard, hyperscan }: ValidatedRuncard): string {
  const entries = runcard.parameters_per_replica;
  if (entries === undefined) return '';
  const specs = runcard.trial_specs;
  const source =
    specs === undefined || hyperscan === undefined
      ? `parameters_per_replica: ${entries.length} entries; replica r takes entry (r − 1) mod ${entries.length} + 1`
      : `trial_specs: the best ${entries.length} of the finished trials of ${hyperscan.file} after the first ${specs.thermalization}; replica r takes the trial of rank r mod ${entries.length} (as n3fit), rank 0 the lowest loss`;
  const lines = [`  per replica:   ${source}`];
  entries.forEach((parameters, k) => {
    const ranked = hyperscan?.trials[k];
    const trial =
      ranked === undefined
        ? ''
        : `; trial ${ranked.trial.tid}, rank ${ranked.rank}, loss ${Number.isFinite(ranked.trial.loss) ? ranked.trial.loss.toPrecision(4) : 'n/a'}${ranked.trial.status === 'ok' ? '' : ` (${ranked.trial.status})`}`;
    lines.push(
      `    entry ${k + 1} (${replicasOfEntry(k, entries.length)}${trial}):`,
      `      network ${networkOf(parameters)}`,
      `      optimizer ${optimizerOf(parameters)}`,
      `      epochs ${epochsOf(parameters)}; positivity ${scheduleOf(parameters.positivity)}; integrability ${scheduleOf(parameters.integrability)}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

/**
 * The scan a runcard describes for `partonfit hyperopt`: its hyperparameters by n3fit's labels,
 * its partitions and its loss; nothing for a runcard without `hyperscan_config` and `kfold`.
 */
function describeScan(runcard: Runcard, file: string): string {
  const { kfold } = runcard;
  if (runcard.hyperscan_config === undefined && kfold === undefined) return '';
  const lines = ['  scan (partonfit hyperopt; a fit ignores it):'];
  if (runcard.hyperscan_config !== undefined) {
    lines.push(`    hyperparameters: ${spaceLabels(scanSpace(runcard, file)).join(', ')}`);
  }
  if (kfold !== undefined) {
    kfold.partitions.forEach((partition, k) => {
      const notes = [
        partition.weight === 1 ? '' : `weight ${partition.weight}`,
        partition.overfit ? 'overfit' : '',
      ].filter((note) => note !== '');
      lines.push(
        `    fold ${k + 1}: holds out ${partition.datasets.join(', ')}${notes.length === 0 ? '' : ` (${notes.join(', ')})`}`,
      );
    });
    lines.push(
      `    loss: ${kfold.loss_type}, ${kfold.replica_statistic} over replicas, ${kfold.fold_statistic ?? kfold.target ?? 'average'} over folds, threshold ${kfold.threshold}; penalties ${kfold.penalties.length === 0 ? 'none' : kfold.penalties.join(', ')}${kfold.penalties_in_loss ? ' (in the loss)' : ' (recorded)'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Where the replicas start from (`load`), after reading replica 1's weights to check that they
 * hold its network.
 */
async function describeLoad(file: string, runcard: Runcard, load: string): Promise<string> {
  const source = resolve(dirname(file), load);
  await readStartingWeights(source, runcard, [1]);
  const folder = (await stat(source)).isDirectory();
  return `  starts from:   ${folder ? `the weights of the fit ${source}, replica by replica` : `${source}, every replica`} (load)\n`;
}

/** Where S enters the fit, in words. */
function theoryCovarianceUse({ inFitting, inSampling }: TheoryCovarianceNeeds): string {
  if (inFitting && inSampling) return 'in the χ² and the pseudodata';
  if (inFitting || inSampling) return inFitting ? 'in the χ² only' : 'in the pseudodata only';
  return 'in neither the χ² nor the pseudodata (use_thcovmat_in_fitting and use_thcovmat_in_sampling are off)';
}

/**
 * The theory covariance a fit would use: its prescriptions, theories and FK tables, the datasets
 * without scale variation, the missing theories (refused, with the command that gets them), and
 * the size of S on the fitted points.
 */
async function describeTheoryCovariance(
  runcard: Runcard,
  paths: InputPaths,
  needs: TheoryCovarianceNeeds,
  measured: readonly ResolvedDataset[],
): Promise<string> {
  const sources = [
    ...(needs.prescriptions.length === 0 ? [] : [needs.prescriptions.join(' + ')]),
    ...(needs.userCovariance === undefined
      ? []
      : [
          `user covariance ${userCovarianceLabel(needs.userCovariance, needs.userCovarianceFactor)}`,
        ]),
  ];
  const lines = [`  theory cov.:   ${sources.join(' + ')}, ${theoryCovarianceUse(needs)}`];
  if (needs.prescriptions.length > 0) {
    const scales = needs.theories
      .map(({ scales: label, theoryId }) =>
        theoryId === undefined ? label : `${theoryId} ${label}`,
      )
      .join(', ');
    const tables =
      needs.datasetsPerTheory === 0
        ? 'generated for the embedded data'
        : `${needs.theories.length * needs.datasetsPerTheory} FK-table sets (${needs.datasetsPerTheory} datasets × ${needs.theories.length} theories)`;
    lines.push(`    scales:      ${scales}`);
    lines.push(`    shifts:      ${tables}, with the PDF ${needs.pdf ?? '?'}`);
    if (needs.unvariedDatasets.length > 0) {
      lines.push(
        `    no shifts:   ${needs.unvariedDatasets.join(', ')} (embedded data at Q0, the same at every scale: S is zero on their points)`,
      );
    }
  }
  if (needs.missingTheories.length > 0) {
    const ids = needs.missingTheories;
    throw new InputFileError({
      file: paths.theories ?? '(no theories folder)',
      key: 'theorycovmatconfig.theoryids',
      problem: `${ids.length} of the ${needs.theories.length} theories are missing: ${ids.join(', ')}; ${ids.map((id) => `\`partonfit get theory ${id}\``).join(', ')} downloads them`,
    });
  }
  const computed = await fitTheoryCovariance(runcard, paths, measured, () => undefined);
  if (computed !== undefined) {
    const central = measured.flatMap((dataset) => Array.from(dataset.commonData.central));
    const n = central.length;
    const relative = central.map(
      (value, i) => Math.sqrt(computed.theory.covariance[i * n + i]) / Math.abs(value),
    );
    const percent = (value: number) => `${(100 * value).toPrecision(2)} %`;
    lines.push(
      `    S:           ${n} × ${n} on the fitted points; √S_ii is ${percent(Math.min(...relative))} to ${percent(Math.max(...relative))} of the data`,
    );
    const { uncheckedTheories } = computed.theory;
    if (uncheckedTheories.length > 0) {
      lines.push(
        `    unchecked:   theory ${uncheckedTheories.join(', ')}: no FK table names its own theory's XIF and XIR, so its place in theoryids is taken as given`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function describeRuncard(file: string, runcard: Runcard, datasets: RuncardDatasets): string {
  const points = datasets.measured.reduce((sum, dataset) => sum + dataset.commonData.ndata, 0);
  const { parameters, fitting } = runcard;
  const own = runcard.parameters_per_replica === undefined ? '' : ' (replica 1; see below)';
  const lines = [
    `${file}: valid`,
    `  datasets:      ${points} points after cuts: ${namesWithPoints(datasets.measured)}`,
    `  positivity:    ${namesWithPoints(datasets.positivitySets)}`,
    `  integrability: ${namesWithPoints(datasets.integrabilitySets)}`,
    `  fit basis:     ${fitting.fitbasis} (${fitting.basis.map((flavour) => flavour.fl).join(', ')}), sum rules ${fitting.sum_rules}`,
    `  network:       ${networkOf(parameters)}${own}`,
    `  optimizer:     ${optimizerOf(parameters)}${own}`,
    `  epochs:        ${epochsOf(parameters)}, threshold χ² ${parameters.threshold_chi2}${own}`,
    `  split:         ${runcard.diagonal_basis ? `diagonal basis, ${runcard.diagonal_frac} of eigenmodes for training` : 'data points, per-dataset frac'}`,
    `  seeds:         nnseed ${runcard.nnseed}, trvlseed ${runcard.trvlseed}, mcseed ${runcard.mcseed}${runcard.genrep ? '' : ' (genrep off: no pseudodata)'}`,
  ];
  return `${lines.join('\n')}\n`;
}
