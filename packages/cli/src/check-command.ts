import { resolve } from 'node:path';
import { loadRuncard, type Runcard } from '@partonfit/core';
import {
  inputPaths,
  resolveRuncardDatasets,
  type ResolvedDataset,
  type RuncardDatasets,
} from '@partonfit/fktables';
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
    const { runcard, warnings } = await loadRuncard(file);
    for (const warning of warnings) {
      terminal.error(
        `warning: ${file}:${warning.line ?? '?'}: ${warning.keyPath}: ${warning.problem}\n`,
      );
    }
    const datasets = await resolveRuncardDatasets(runcard, inputPaths(runcard, resolve(file)));
    terminal.out(describeRuncard(file, runcard, datasets));
  },
});

/** `NAME (points), …`, or `none`. */
function namesWithPoints(datasets: readonly ResolvedDataset[]): string {
  return (
    datasets.map((dataset) => `${dataset.name} (${dataset.commonData.ndata})`).join(', ') || 'none'
  );
}

function describeRuncard(file: string, runcard: Runcard, datasets: RuncardDatasets): string {
  const points = datasets.measured.reduce((sum, dataset) => sum + dataset.commonData.ndata, 0);
  const { parameters, fitting } = runcard;
  const optimizer = parameters.optimizer;
  const lines = [
    `${file}: valid`,
    `  datasets:      ${points} points after cuts: ${namesWithPoints(datasets.measured)}`,
    `  positivity:    ${namesWithPoints(datasets.positivitySets)}`,
    `  integrability: ${namesWithPoints(datasets.integrabilitySets)}`,
    `  fit basis:     ${fitting.fitbasis} (${fitting.basis.map((flavour) => flavour.fl).join(', ')}), sum rules ${fitting.sum_rules}`,
    `  network:       2 → ${parameters.nodes_per_layer.join(' → ')} (${parameters.activation_per_layer.join(', ')}), ${parameters.initializer}`,
    `  optimizer:     ${optimizer.optimizer_name}, learning rate ${optimizer.learning_rate}, clipnorm ${optimizer.clipnorm}`,
    `  epochs:        ${parameters.epochs}, patience ${Math.trunc(parameters.epochs * parameters.stopping_patience)} epochs, threshold χ² ${parameters.threshold_chi2}`,
    `  split:         ${runcard.diagonal_basis ? `diagonal basis, ${runcard.diagonal_frac} of eigenmodes for training` : 'data points, per-dataset frac'}`,
    `  seeds:         nnseed ${runcard.nnseed}, trvlseed ${runcard.trvlseed}, mcseed ${runcard.mcseed}${runcard.genrep ? '' : ' (genrep off: no pseudodata)'}`,
  ];
  return `${lines.join('\n')}\n`;
}
