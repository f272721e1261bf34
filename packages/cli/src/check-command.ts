import { loadRuncard, type Runcard } from '@partonfit/core';
import { defineCommand } from './define-command.js';

/** `partonfit check <runcard>`: validates a runcard and shows what the fit would do. */
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
    terminal.out(describeRuncard(file, runcard));
  },
});

function describeRuncard(file: string, runcard: Runcard): string {
  const { parameters, fitting } = runcard;
  const optimizer = parameters.optimizer;
  const lines = [
    `${file}: valid`,
    `  datasets:      ${runcard.dataset_inputs.map((input) => input.dataset).join(', ')}`,
    `  positivity:    ${runcard.positivity.posdatasets.map((set) => set.dataset).join(', ') || 'none'}`,
    `  integrability: ${runcard.integrability.integdatasets.map((set) => set.dataset).join(', ') || 'none'}`,
    `  fit basis:     ${fitting.fitbasis} (${fitting.basis.map((flavour) => flavour.fl).join(', ')}), sum rules ${fitting.sum_rules}`,
    `  network:       2 → ${parameters.nodes_per_layer.join(' → ')} (${parameters.activation_per_layer.join(', ')}), ${parameters.initializer}`,
    `  optimizer:     ${optimizer.optimizer_name}, learning rate ${optimizer.learning_rate}, clipnorm ${optimizer.clipnorm}`,
    `  epochs:        ${parameters.epochs}, patience ${Math.trunc(parameters.epochs * parameters.stopping_patience)} epochs, threshold χ² ${parameters.threshold_chi2}`,
    `  split:         ${runcard.diagonal_basis ? `diagonal basis, ${runcard.diagonal_frac} of eigenmodes for training` : 'data points, per-dataset frac'}`,
    `  seeds:         nnseed ${runcard.nnseed}, trvlseed ${runcard.trvlseed}, mcseed ${runcard.mcseed}${runcard.genrep ? '' : ' (genrep off: no pseudodata)'}`,
  ];
  return `${lines.join('\n')}\n`;
}
