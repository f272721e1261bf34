import { parseArgs } from 'node:util';
import { loadRuncard, PartonfitError, type Runcard } from '@partonfit/core';
import { EXIT_FAILURE, EXIT_USAGE, type Command } from './commands.js';

/** `partonfit check <runcard>`: validates a runcard and shows what the fit would do. */
export const checkCommand: Command = {
  name: 'check',
  summary: 'validate a runcard and show the settings a fit would use',
  usage: 'partonfit check <runcard.yml>',
  run: async (args, terminal) => {
    const { positionals } = parseArgs({ args: [...args], allowPositionals: true, strict: true });
    if (positionals.length !== 1) {
      terminal.error(`usage: ${checkCommand.usage}\n`);
      return EXIT_USAGE;
    }
    try {
      const { runcard, warnings } = await loadRuncard(positionals[0]);
      for (const warning of warnings) {
        terminal.error(
          `warning: ${positionals[0]}:${warning.line ?? '?'}: ${warning.keyPath}: ${warning.problem}\n`,
        );
      }
      terminal.out(describeRuncard(positionals[0], runcard));
      return 0;
    } catch (error) {
      if (!PartonfitError.isInstance(error)) throw error;
      terminal.error(`${error.message}\n`);
      return EXIT_FAILURE;
    }
  },
};

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
