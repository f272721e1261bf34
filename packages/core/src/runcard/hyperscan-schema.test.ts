import { describe, expect, it } from 'vitest';
import { RuncardError } from '../errors/runcard-error.js';
import { parseRuncard } from './load-runcard.js';
import { scanRequirements } from './scan-consistency.js';

/** A scan runcard: two datasets, a search space and k-fold partitions, with `changes` applied. */
function scanRuncard(changes: readonly [string, string][] = []): string {
  let text = [
    'dataset_inputs:',
    '  - { dataset: CLOSURE_F2P }',
    '  - { dataset: CLOSURE_F2D }',
    'trvlseed: 3',
    'nnseed: 2',
    'mcseed: 1',
    'parameters:',
    '  nodes_per_layer: [25, 20, 8]',
    '  activation_per_layer: [tanh, tanh, linear]',
    '  optimizer: { optimizer_name: Nadam }',
    '  epochs: 1000',
    '  stopping_patience: 0.1',
    'fitting:',
    '  fitbasis: EVOL',
    '  basis:',
    ...['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].map(
      (fl) => `    - { fl: ${fl}, smallx: [1.0, 1.1], largex: [1.5, 3.0] }`,
    ),
    'hyperscan_config:',
    '  stopping: { min_epochs: 2e1, max_epochs: 5e1, min_patience: 0.1, max_patience: 0.4 }',
    '  optimizer:',
    '    - { optimizer_name: Adadelta, learning_rate: { min: 0.008, max: 0.07 } }',
    '    - { optimizer_name: RMSprop, learning_rate: { sampling: log, min: 0.01, max: 1.5 } }',
    '  positivity: { min_multiplier: 1.01, max_multiplier: 1.1 }',
    '  architecture:',
    '    initializers: [glorot_normal, glorot_uniform]',
    '    n_layers: [2, 3]',
    '    min_units: 10',
    '    max_units: 50',
    '    activations: [sigmoid, tanh]',
    'kfold:',
    '  target: average',
    '  penalties: [saturation, patience, integrability]',
    '  threshold: 1e3',
    '  partitions:',
    '    - datasets: [CLOSURE_F2P]',
    '    - { datasets: [CLOSURE_F2D], weight: 2.0 }',
  ].join('\n');
  for (const [from, to] of changes) text = text.replace(from, to);
  return `${text}\n`;
}

function problems(text: string): string[] {
  try {
    parseRuncard(text, { file: 'scan.yml' });
  } catch (error) {
    if (RuncardError.isInstance(error)) {
      return error.issues.map(
        (issue) => `${issue.line ?? '?'}: ${issue.keyPath}: ${issue.problem}`,
      );
    }
    throw error;
  }
  throw new Error('expected the runcard to be refused');
}

describe("a scan's hyperscan_config and kfold (n3fit 4.1.5's keys)", () => {
  it("reads n3fit's regression scan with its defaults", () => {
    const { runcard, warnings } = parseRuncard(scanRuncard(), { file: 'scan.yml' });
    expect(warnings).toEqual([]);
    expect(runcard.hyperscan_config?.stopping).toEqual({
      min_epochs: 20,
      max_epochs: 50,
      min_patience: 0.1,
      max_patience: 0.4,
    });
    expect(runcard.hyperscan_config?.optimizer?.[1]?.learning_rate).toEqual({
      sampling: 'log',
      min: 0.01,
      max: 1.5,
    });
    expect(runcard.kfold).toEqual({
      target: 'average',
      penalties: ['saturation', 'patience', 'integrability'],
      threshold: 1000,
      partitions: [
        { datasets: ['CLOSURE_F2P'], weight: 1, overfit: false },
        { datasets: ['CLOSURE_F2D'], weight: 2, overfit: false },
      ],
      loss_type: 'chi2',
      replica_statistic: 'average',
      penalties_in_loss: false,
      reduce_proportion: 0.85,
    });
  });

  it('names the key and line of each setting it does not know', () => {
    expect(
      problems(
        scanRuncard([
          ['  threshold: 1e3', '  threshold: 1e3\n  loss_type: logp\n  fold_statistic: median'],
          ['[saturation, patience, integrability]', '[saturation, speed]'],
        ]),
      ),
    ).toEqual([
      "38: kfold.penalties[1]: expected one of saturation, patience, integrability, got 'speed'",
      "40: kfold.loss_type: expected one of chi2, phi2 (n3fit's logp and chi2p are not supported), got 'logp'",
      "41: kfold.fold_statistic: expected a statistic over folds: one of average, average_best, best_worst, std, got 'median'",
    ]);
  });

  it('names bounds out of order and partitions of datasets the runcard does not fit', () => {
    expect(
      problems(
        scanRuncard([
          ['min_epochs: 2e1, max_epochs: 5e1', 'min_epochs: 60, max_epochs: 50'],
          ['max_units: 50', 'max_units: 5'],
          ['    - datasets: [CLOSURE_F2P]', '    - datasets: [CLOSURE_F2P, HERA_NC]'],
        ]),
      ),
    ).toEqual([
      '25: hyperscan_config.stopping.min_epochs: min_epochs 60 is above max_epochs 50',
      '33: hyperscan_config.architecture.min_units: min_units 10 is above max_units 5',
      "41: kfold.partitions[0].datasets[1]: HERA_NC is not one of the runcard's dataset_inputs",
    ]);
  });

  it('refuses dropout, which partonfit does not train with, and n_layers without units', () => {
    expect(
      problems(
        scanRuncard([
          ['    initializers:', '    max_drop: 0.15\n    initializers:'],
          ['    min_units: 10\n    max_units: 50\n', ''],
        ]),
      ),
    ).toEqual([
      '31: hyperscan_config.architecture.max_drop: partonfit does not train with dropout: set max_drop: 0 or remove it',
      '33: hyperscan_config.architecture.n_layers: sampling the number of layers needs min_units and max_units',
    ]);
  });

  it('says what a scan needs beyond a fit', () => {
    const scan = parseRuncard(scanRuncard(), { file: 'scan.yml' }).runcard;
    expect(scanRequirements(scan, 1)).toEqual([]);
    const phi2 = parseRuncard(
      scanRuncard([['  threshold: 1e3', '  threshold: 1e3\n  loss_type: phi2']]),
    ).runcard;
    expect(scanRequirements(phi2, 1).map((issue) => issue.keyPath)).toEqual(['kfold.loss_type']);
    expect(scanRequirements(phi2, 2)).toEqual([]);
    const fit = { ...scan, kfold: undefined, hyperscan_config: undefined };
    expect(
      scanRequirements({ ...fit, parameters_per_replica: [scan.parameters] }, 1).map(
        (issue) => issue.keyPath,
      ),
    ).toEqual(['hyperscan_config', 'kfold', 'parameters_per_replica']);
    expect(scanRequirements({ ...scan, load: 'fits/earlier' }, 1)).toEqual([
      {
        keyPath: 'load',
        problem:
          'a scan trains every trial from its own random weights (its networks differ): remove it from the scan runcard',
      },
    ]);
  });
});
