import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RuncardError } from '../errors/runcard-error.js';
import { triesText, type TrialSketch } from '../hyperscan/tries.fixture.js';
import { loadRuncard, parseRuncard } from './load-runcard.js';
import { replicaParameters, replicaParametersEntry } from './replica-parameters.js';

const BASE = [
  'dataset_inputs:',
  '  - { dataset: SLAC_NC_NOTFIXED_P_EM-F2, variant: legacy_dw }',
  'trvlseed: 3',
  'nnseed: 2',
  'mcseed: 1',
  'fitting:',
  '  fitbasis: EVOL',
  '  basis:',
  ...['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].map(
    (fl) => `    - { fl: ${fl}, smallx: [1.0, 1.1], largex: [1.5, 3.0] }`,
  ),
].join('\n');

const PARAMETERS = [
  'parameters:',
  '  nodes_per_layer: [25, 20, 8]',
  '  activation_per_layer: [tanh, tanh, linear]',
  '  optimizer: { optimizer_name: Nadam, learning_rate: 2.0e-3, clipnorm: 1.0e-5 }',
  '  epochs: 1000',
  '  stopping_patience: 0.1',
  '  threshold_chi2: 4.0',
  '  positivity: { initial: 10, threshold: 1.0e-5 }',
].join('\n');

function issuesOf(error: unknown): string[] {
  if (!RuncardError.isInstance(error)) throw error;
  return error.issues.map((issue) => `${issue.line ?? '?'}: ${issue.keyPath}: ${issue.problem}`);
}

function rejected(text: string): string[] {
  try {
    parseRuncard(text, { file: 'fit.yml' });
  } catch (error) {
    return issuesOf(error);
  }
  throw new Error('expected the runcard to be rejected');
}

describe('parameters_per_replica', () => {
  const card = `${BASE}\n${PARAMETERS}\nparameters_per_replica:
  - {}
  - { nodes_per_layer: [35, 8], activation_per_layer: [sigmoid, linear], initializer: glorot_uniform }
  - { optimizer: { optimizer_name: Adam }, epochs: 600, stopping_patience: 0.25 }
  - { optimizer: { learning_rate: 5.0e-3 }, positivity: { multiplier: 1.2 } }
`;

  it('should merge each entry onto parameters and give replica r entry (r − 1) mod N', () => {
    const { runcard } = parseRuncard(card);
    expect(runcard.parameters_per_replica).toHaveLength(4);
    expect(replicaParametersEntry(runcard, 1)).toBe(0);
    expect(replicaParametersEntry(runcard, 4)).toBe(3);
    expect(replicaParametersEntry(runcard, 6)).toBe(1);
    expect(replicaParameters(runcard, 1)).toEqual(runcard.parameters);
    expect(replicaParameters(runcard, 2)).toMatchObject({
      nodes_per_layer: [35, 8],
      activation_per_layer: ['sigmoid', 'linear'],
      initializer: 'glorot_uniform',
      epochs: 1000,
      threshold_chi2: 4,
    });
    // another optimiser takes its own default learning rate, and keeps the clipnorm
    expect(replicaParameters(runcard, 3)).toMatchObject({
      optimizer: { optimizer_name: 'Adam', learning_rate: 0.01, clipnorm: 1e-5 },
      epochs: 600,
      stopping_patience: 0.25,
    });
    expect(replicaParameters(runcard, 8)).toMatchObject({
      optimizer: { optimizer_name: 'Nadam', learning_rate: 5e-3, clipnorm: 1e-5 },
      positivity: { initial: 10, multiplier: 1.2, threshold: 1e-5 },
    });
    expect(() => replicaParameters(runcard, 0)).toThrow(/expected a replica number from 1/);
  });

  it('should refuse shared settings, unknown keys and bad values, naming entry, key and line', () => {
    const issues = rejected(`${BASE}\n${PARAMETERS}\nparameters_per_replica:
  - { threshold_chi2: 3.0 }
  - { optimiser: { optimizer_name: Adam } }
  - { positivity: { threshold: 1.0 } }
  - { nodes_per_layer: [30, 2000, 8], activation_per_layer: [tanh, relu6, linear] }
  - { optimizer: { optimizer_name: Adamw }, epochs: -5 }
`);
    expect(issues).toEqual([
      '26: parameters_per_replica[0].threshold_chi2: shared by every replica: set it once in parameters (per replica: nodes_per_layer, activation_per_layer, initializer, layer_type, dropout, optimizer, epochs, stopping_patience, positivity, integrability)',
      "27: parameters_per_replica[1].optimiser: not a hyperparameter (did you mean 'optimizer'?); per replica: nodes_per_layer, activation_per_layer, initializer, layer_type, dropout, optimizer, epochs, stopping_patience, positivity, integrability",
      '28: parameters_per_replica[2].positivity.threshold: not a per-replica setting: only initial and multiplier may differ between replicas; set it once in parameters.positivity',
      "29: parameters_per_replica[3].nodes_per_layer[1]: expected at most 1024 nodes (partonfit's widest layer), got 2000",
      "29: parameters_per_replica[3].activation_per_layer[1]: expected one of linear, tanh, sigmoid, relu, elu, softplus, square, leaky_relu, modified_tanh, got 'relu6'",
      "30: parameters_per_replica[4].optimizer.optimizer_name: expected one of SGD, RMSprop, Adam, Adamax, Adagrad, Adadelta, Nadam, Amsgrad, got 'Adamw'",
      '30: parameters_per_replica[4].epochs: expected a positive integer, got -5',
    ]);
    expect(
      rejected(`${BASE}\n${PARAMETERS}\nparameters_per_replica:
  - { nodes_per_layer: [30, 7] }
  - { activation_per_layer: [tanh, linear], dropout: 0.2 }
  - { epochs: 10 }
`),
    ).toEqual([
      '26: parameters_per_replica[0].activation_per_layer: expected 2 activations, one per layer of nodes_per_layer [30, 7], got 3',
      '26: parameters_per_replica[0].nodes_per_layer[1]: expected 8, the number of fitted flavours in fitting.basis, got 7',
      '27: parameters_per_replica[1].activation_per_layer: expected 3 activations, one per layer of nodes_per_layer [25, 20, 8], got 2',
      '27: parameters_per_replica[1].dropout: dropout is not supported yet, got 0.2: set it to 0',
    ]);
  });

  it('should report a bad setting of parameters once, not again for every entry', () => {
    const issues = rejected(
      `${BASE}\n${PARAMETERS.replace('epochs: 1000', 'epochs: 0')}\nparameters_per_replica:\n  - { epochs: 5 }\n  - {}\n  - { initializer: he }\n`,
    );
    expect(issues).toEqual([
      '21: parameters.epochs: expected a positive integer, got 0',
      "28: parameters_per_replica[2].initializer: expected one of glorot_normal, glorot_uniform, random_uniform, got 'he'",
    ]);
    expect(
      rejected(
        `${BASE}\n${PARAMETERS.replace('  epochs: 1000\n', '')}\nparameters_per_replica:\n  - { epochs: 5 }\n`,
      ),
    ).toEqual(['17: parameters.epochs: missing; expected a positive integer']);
  });
});

/** A scan folder with a `tries.json` of the given trials, as n3fit lays it out. */
async function scanFolder(trials: readonly TrialSketch[]): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-scan-'));
  const replica = join(folder, 'scan', 'nnfit', 'replica_1');
  await mkdir(replica, { recursive: true });
  await writeFile(join(replica, 'tries.json'), triesText(trials));
  return folder;
}

const TRIALS: TrialSketch[] = [
  { tid: 0, loss: 0.5, nodes: [10, 8] },
  { tid: 1, loss: 3.0, nodes: [40, 30, 8], optimizer: 'Adam', learningRate: 4e-3 },
  { tid: 2, loss: 1.0, nodes: [30, 20, 8], activation: 'sigmoid', epochs: 900.0 },
  { tid: 3, loss: 2.0, nodes: [20, 15, 8], optimizer: 'RMSprop', patience: 0.3, initial: 50 },
  { tid: 4, loss: Number.NaN, nodes: [25, 25, 8] },
];

const SHARED_PARAMETERS = [
  'parameters:',
  '  threshold_chi2: 4.0',
  '  positivity: { multiplier: 1.05, initial: 1.5 }',
].join('\n');

describe('trial_specs', () => {
  it('should give replica r the kept trial r mod N, as n3fit 4.1.5, with override', async () => {
    const folder = await scanFolder(TRIALS);
    const runcard = join(folder, 'fit.yml');
    await writeFile(
      runcard,
      `${BASE}\n${SHARED_PARAMETERS}\ntrial_specs:\n  hyperscan: scan\n  thermalization: 1\n  number_of_trials: 3\n  override: { clipnorm: 2.0e-6 }\n`,
    );
    const { runcard: card, hyperscan } = await loadRuncard(runcard);
    // kept, best first: tid 2 (1.0), 3 (2.0), 1 (3.0); replica r takes rank r mod 3
    expect(hyperscan?.file).toBe(join(folder, 'scan', 'nnfit', 'replica_1', 'tries.json'));
    expect(hyperscan?.trials.map(({ trial, rank }) => [trial.tid, rank])).toEqual([
      [3, 1],
      [1, 2],
      [2, 0],
    ]);
    const replica = (r: number) => replicaParameters(card, r);
    expect(replica(3)).toMatchObject({
      nodes_per_layer: [30, 20, 8],
      activation_per_layer: ['sigmoid', 'sigmoid', 'linear'],
      epochs: 900,
      optimizer: { optimizer_name: 'Nadam', learning_rate: 1e-3, clipnorm: 2e-6 },
      positivity: { initial: 10, multiplier: 1.05, threshold: 1e-6 },
      threshold_chi2: 4,
    });
    expect(replica(1)).toMatchObject({
      nodes_per_layer: [20, 15, 8],
      optimizer: { optimizer_name: 'RMSprop', clipnorm: 2e-6 },
      stopping_patience: 0.3,
      positivity: { initial: 50, multiplier: 1.05 },
    });
    expect(replica(2).optimizer).toEqual({
      optimizer_name: 'Adam',
      learning_rate: 4e-3,
      clipnorm: 2e-6,
    });
    expect(replica(4)).toEqual(replica(1));
    expect(card.parameters).toEqual(replica(1));
    // a fit folder reads its own copy of the trials
    const copy = join(folder, 'copy');
    await mkdir(copy);
    await writeFile(join(copy, 'tries.json'), triesText(TRIALS.slice(0, 4)));
    const fromCopy = await loadRuncard(runcard, { hyperscan: copy });
    expect(fromCopy.runcard.parameters_per_replica).toEqual(card.parameters_per_replica);
  });

  it('should refuse what n3fit refuses and name the key, trial and file at fault', async () => {
    const folder = await scanFolder([...TRIALS, { tid: 5, loss: 0.1, nodes: [30, 9] }]);
    const runcard = join(folder, 'fit.yml');
    const write = (specs: string, parameters = SHARED_PARAMETERS) =>
      writeFile(runcard, `${BASE}\n${parameters}\ntrial_specs:\n${specs}\n`);
    const problems = async () => {
      try {
        await loadRuncard(runcard);
      } catch (error) {
        return issuesOf(error).map((issue) => issue.replace(folder, '<scan>'));
      }
      throw new Error('expected a refusal');
    };
    await write('  hyperscan: scan\n  number_of_trials: 2');
    expect(await problems()).toEqual([
      '21: trial_specs.hyperscan: trial 5 (rank 0 of the kept trials) of <scan>/scan/nnfit/replica_1/tries.json: nodes_per_layer[1]: expected 8, the number of fitted flavours in fitting.basis, got 9',
    ]);
    await write('  hyperscan: scan\n  thermalization: 4\n  number_of_trials: 3');
    expect(await problems()).toEqual([
      '23: trial_specs.number_of_trials: <scan>/scan/nnfit/replica_1/tries.json has 6 finished trial(s) of 6; thermalization 4 + number_of_trials 3 needs 7',
    ]);
    await write('  hyperscan: elsewhere\n  number_of_trials: 2');
    expect(await problems()).toEqual([
      '21: trial_specs.hyperscan: no trials in <scan>/elsewhere: expected a tries.json file, or a folder holding tries.json, hyperopt/tries.json, nnfit/replica_1/tries.json',
    ]);
    await write(
      '  hyperscan: scan\n  thermalization: 1\n  number_of_trials: 2\n  override: { epoch: 10, learning_rate: 1.0e-3 }',
      `${SHARED_PARAMETERS}\n  epochs: 100`,
    );
    expect(await problems()).toEqual([
      '20: parameters.epochs: set per replica by the trials of trial_specs: remove it here (trial_specs.override gives every replica one value)',
      "25: trial_specs.override.epoch: not a trial setting (did you mean 'epochs'?), got 10; expected one of optimizer, learning_rate, clipnorm, epochs, stopping_patience, initial, multiplier, nodes_per_layer, activation_per_layer, initializer, layer_type, dropout",
    ]);
    await writeFile(
      runcard,
      `${BASE}\n${PARAMETERS}\nparameters_per_replica: [{}]\ntrial_specs: { hyperscan: scan, number_of_trials: 1 }\n`,
    );
    expect(await problems()).toContain(
      '25: parameters_per_replica: cannot be combined with trial_specs, which sets every replica’s parameters',
    );
    expect(() =>
      parseRuncard(
        `${BASE}\n${SHARED_PARAMETERS}\ntrial_specs: { hyperscan: scan, number_of_trials: 1 }\n`,
      ),
    ).toThrow(/trial_specs\.hyperscan: the scan's trials were not read/);
  });
});
