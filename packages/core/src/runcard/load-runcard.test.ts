import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { describe, expect, it } from 'vitest';
import { RuncardError } from '../errors/runcard-error.js';
import { loadRuncard, parseDatasetInput, parseRuncard } from './load-runcard.js';

const EXAMPLE = fileURLToPath(new URL('../../../../examples/nnpdf40-like.yml', import.meta.url));
const QUICKCARD = `${SHARED_DATA}n3fit_reference/quickcard.yml`;

/** A small valid runcard; `sections` replace or add top-level blocks. */
function runcard(sections: Record<string, string> = {}): string {
  const blocks: Record<string, string> = {
    dataset_inputs:
      'dataset_inputs:\n  - { dataset: SLAC_NC_NOTFIXED_P_EM-F2, variant: legacy_dw }',
    seeds: 'trvlseed: 3\nnnseed: 2\nmcseed: 1',
    parameters: [
      'parameters:',
      '  nodes_per_layer: [25, 20, 8]',
      '  activation_per_layer: [tanh, tanh, linear]',
      '  optimizer: { optimizer_name: Nadam }',
      '  epochs: 1000',
      '  stopping_patience: 0.1',
    ].join('\n'),
    fitting: [
      'fitting:',
      '  fitbasis: EVOL',
      '  basis:',
      ...['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].map(
        (fl) => `    - { fl: ${fl}, smallx: [1.0, 1.1], largex: [1.5, 3.0] }`,
      ),
    ].join('\n'),
    ...sections,
  };
  return Object.values(blocks).join('\n') + '\n';
}

function issuesOf(text: string): string[] {
  try {
    parseRuncard(text, { file: 'fit.yml' });
  } catch (error) {
    if (RuncardError.isInstance(error)) {
      return error.issues.map(
        (issue) => `${issue.line ?? '?'}: ${issue.keyPath}: ${issue.problem}`,
      );
    }
    throw error;
  }
  throw new Error('expected the runcard to be rejected');
}

describe('parseRuncard', () => {
  it("should fill in n3fit's defaults", () => {
    const { runcard: card, warnings } = parseRuncard(runcard());
    expect(warnings).toEqual([]);
    expect(card.parameters.optimizer).toEqual({
      optimizer_name: 'Nadam',
      learning_rate: 0.001,
      clipnorm: 1,
    });
    expect(card.parameters).toMatchObject({
      initializer: 'glorot_normal',
      threshold_chi2: 10,
      stopping_delta: 0,
      layer_type: 'dense',
      dropout: 0,
      positivity: { threshold: 1e-6 },
    });
    expect(card.datacuts).toEqual({ q2min: 3.49, w2min: 12.5 });
    expect(card).toMatchObject({ genrep: true, diagonal_basis: true, diagonal_frac: 0.75 });
    expect(card.dataset_inputs[0]).toEqual({
      dataset: 'SLAC_NC_NOTFIXED_P_EM-F2',
      variant: 'legacy_dw',
      frac: 1,
      weight: 1,
      cfac: [],
    });
    expect(card.fitting.sum_rules).toBe('ALL');
    expect(card.fitting.basis[0]).toEqual({
      fl: 'sng',
      smallx: [1.0, 1.1],
      largex: [1.5, 3.0],
      trainable: true,
    });
    expect(card.positivity.posdatasets).toEqual([]);
  });

  it("should store upstream's fit-basis alias under its canonical name", () => {
    const text = runcard().replace('fitbasis: EVOL', 'fitbasis: evolution');
    expect(parseRuncard(text).runcard.fitting.fitbasis).toBe('EVOL');
  });

  it('should read theoryid written with underscores, as n3fit runcards do', () => {
    expect(
      parseRuncard(runcard({ theory: 'theory: { theoryid: 40_000_000 }' })).runcard.theory,
    ).toEqual({
      theoryid: 40000000,
    });
  });

  it('should name the key path, the line, what was expected and what was found', () => {
    const text = runcard().replace('nodes_per_layer: [25, 20, 8]', 'nodes_per_layer: [25, 20, -3]');
    expect(issuesOf(text)).toEqual([
      '7: parameters.nodes_per_layer[2]: expected a positive integer, got -3',
    ]);
  });

  it('should report every problem at once, in line order', () => {
    const text = runcard({
      seeds: 'trvlseed: 3\nnnseed: -2\nmcseed: one',
    }).replace('stopping_patience: 0.1', 'stopping_patience: 1.5');
    expect(issuesOf(text)).toEqual([
      '4: nnseed: expected an integer between 0 and 4294967295, got -2',
      "5: mcseed: expected an integer between 0 and 4294967295, got 'one'",
      '11: parameters.stopping_patience: expected a number between 0 and 1, got 1.5',
    ]);
  });

  it('should report missing keys at the section that should hold them', () => {
    const text = runcard().replace('  epochs: 1000\n', '');
    expect(issuesOf(text)).toEqual(['6: parameters.epochs: missing; expected a positive integer']);
  });

  it('should report unknown keys and suggest the closest known one', () => {
    const text = runcard().replace('  epochs: 1000', '  epoch: 1000\n  learning_rate_decay: 3');
    expect(issuesOf(text)).toEqual(
      [
        "10: parameters.epoch: unknown key (did you mean 'epochs'?)",
        '11: parameters.learning_rate_decay: unknown key',
        '6: parameters.epochs: missing; expected a positive integer',
      ].sort((a, b) => Number.parseInt(a) - Number.parseInt(b)),
    );
  });

  it('should check layers against activations and the output layer against the fitted flavours', () => {
    const text = runcard()
      .replace('[25, 20, 8]', '[25, 20, 9]')
      .replace('[tanh, tanh, linear]', '[tanh, linear]');
    expect(issuesOf(text)).toEqual([
      '7: parameters.nodes_per_layer[2]: expected 8, the number of fitted flavours in fitting.basis, got 9',
      '8: parameters.activation_per_layer: expected 3 activations, one per layer of nodes_per_layer [25, 20, 9], got 2',
    ]);
  });

  it('should check the fitted flavours against the fit basis', () => {
    const text = runcard().replace('fl: t15', 'fl: cp').replace('fl: t8', 'fl: t3');
    expect(issuesOf(text)).toEqual([
      '14: fitting.basis: missing flavour(s) t8, t15: EVOL fits sng, g, v, v3, v8, t3, t8, t15',
      "21: fitting.basis[6].fl: repeats flavour 't3' of fitting.basis[5]",
      "22: fitting.basis[7].fl: expected one of sng, g, v, v3, v8, t3, t8, t15 (the flavours of EVOL), got 'cp'",
    ]);
  });

  it('should accept explicit FK-table files and reject keys that clash with a bundle', () => {
    const explicit = runcard({
      dataset_inputs: [
        'dataset_inputs:',
        '  - { dataset: ATLAS_TOT, fktables: [[a.dat], [b.dat]], operation: RATIO }',
        '  - { dataset: POS, fktables: [pos.dat], commondata: ./data }',
      ].join('\n'),
    });
    const { runcard: parsed } = parseRuncard(explicit, { file: 'fit.yml' });
    expect(parsed.dataset_inputs.map((input) => [input.fktables, input.operation])).toEqual([
      [[['a.dat'], ['b.dat']], 'RATIO'],
      [['pos.dat'], undefined],
    ]);
    const clashing = runcard({
      dataset_inputs: [
        'dataset_inputs:',
        '  - { dataset: SLACP, bundle: slacp.npz, variant: legacy, cfac: [QCD] }',
        '  - { dataset: HERA, operation: ASY }',
      ].join('\n'),
    });
    expect(issuesOf(clashing)).toEqual([
      '2: dataset_inputs[0].variant: cannot be combined with bundle, which holds the FK table, data and covariance',
      '2: dataset_inputs[0].cfac: cannot be combined with bundle, which holds the FK table, data and covariance',
      '3: dataset_inputs[1].operation: needs fktables: it says how their operands combine',
    ]);
  });

  it('should read closure-test settings and require the PDF of fake data', () => {
    const closure = runcard({
      closure: 'closuretest: { fakedata: true, fakepdf: toyLH, fakenoise: true }',
    });
    expect(parseRuncard(closure).runcard.closuretest).toEqual({
      fakedata: true,
      fakepdf: 'toyLH',
      fakenoise: true,
      filterseed: 0,
    });
    expect(issuesOf(runcard({ closure: 'closuretest: { fakedata: true }' }))).toEqual([
      '23: closuretest.fakepdf: missing; fakedata needs the PDF that makes the data',
    ]);
  });

  it('should read the theory card evolve uses, and refuse an empty one', () => {
    const named = runcard({ evolution: 'evolution: { theory_card: ../theory_200.yaml }' });
    expect(parseRuncard(named).runcard.evolution).toEqual({ theory_card: '../theory_200.yaml' });
    expect(parseRuncard(runcard()).runcard.evolution).toBeUndefined();
    expect(issuesOf(runcard({ evolution: "evolution: { theory_card: '' }" }))).toEqual([
      "23: evolution.theory_card: expected a non-empty string, got ''",
    ]);
  });

  it('should reject ranges with low > high, unknown bases, optimisers and activations', () => {
    const text = runcard()
      .replace('fitbasis: EVOL', 'fitbasis: EVOLS')
      .replace('{ optimizer_name: Nadam }', '{ optimizer_name: Adamw }')
      .replace('[tanh, tanh, linear]', '[tanh, tahn, linear]')
      .replace('{ fl: g, smallx: [1.0, 1.1]', '{ fl: g, smallx: [1.1, 1.0]');
    expect(issuesOf(text)).toEqual([
      "8: parameters.activation_per_layer[1]: expected one of linear, tanh, sigmoid, relu, elu, softplus, square, leaky_relu, modified_tanh, got 'tahn'",
      "9: parameters.optimizer.optimizer_name: expected one of SGD, RMSprop, Adam, Adamax, Adagrad, Adadelta, Nadam, Amsgrad, got 'Adamw'",
      "13: fitting.fitbasis: expected one of EVOL, NN31IC, FLAVOUR, CCBAR_ASYMM, got 'EVOLS'",
      '16: fitting.basis[1].smallx: expected a range [low, high] with low ≤ high, got [1.1, 1]',
    ]);
  });

  it('should warn about upstream keys without effect and reject unsupported or moved ones', () => {
    const text = runcard({
      extra:
        'debug: true\nmaxcores: 8\nload_weights_from_fit: NNPDF40\ndouble_precision: false\nsum_rules: MSR',
    });
    expect(issuesOf(text)).toEqual([
      "25: load_weights_from_fit: not supported by partonfit: give the fit folder as 'load:' instead; remove it",
      '27: sum_rules: partonfit reads it under fitting:, as fitting.sum_rules',
    ]);
    const { warnings } = parseRuncard(runcard({ extra: 'debug: true\ndouble_precision: false' }));
    expect(warnings).toEqual([
      {
        keyPath: 'debug',
        line: 23,
        problem:
          'ignored: has no effect in partonfit (partonfit fits are always reproducible from their seeds)',
      },
      { keyPath: 'double_precision', line: 24, problem: 'ignored: switched off' },
    ]);
  });

  it('should reject keys that n3fit moved, naming where they belong', () => {
    const text = runcard()
      .replace('  fitbasis: EVOL', '  fitbasis: EVOL\n  nnseed: 4')
      .replace('variant: legacy_dw }', 'variant: legacy_dw, sys: 10 }');
    expect(issuesOf(text)).toEqual([
      '2: dataset_inputs[0].sys: is deprecated; use variant',
      "14: fitting.nnseed: should be the top-level key 'nnseed', not part of fitting",
    ]);
  });

  it('should reject YAML that does not parse, with its line', () => {
    expect(issuesOf('parameters:\n  epochs: 1\n  epochs: 2\n')).toEqual([
      '3: : not valid YAML: Map keys must be unique',
    ]);
    expect(issuesOf('- just\n- a list\n')).toEqual([
      "?: : expected a mapping of keys to values, got ['just', 'a list']",
    ]);
  });

  it('should format the whole error for a person', () => {
    const text = runcard().replace('epochs: 1000', 'epochs: 0');
    expect(() => parseRuncard(text, { file: 'fit.yml' })).toThrow(
      'fit.yml: 1 problem in the runcard\n  fit.yml:10: parameters.epochs: expected a positive integer, got 0',
    );
  });
});

describe('parseRuncard on YAML aliases', () => {
  it('should refuse an alias of an anchor never set, and an alias bomb, as invalid YAML', () => {
    expect(() => parseRuncard('nnseed: *seed\n', { file: 'fit.yml' })).toThrow(
      /fit\.yml: not valid YAML: Unresolved alias/,
    );
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 8; level++) {
      const previous = String.fromCharCode(96 + level);
      bomb.push(
        `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10).fill(`*${previous}`).join(', ')}]`,
      );
    }
    expect(() => parseRuncard(`${bomb.join('\n')}\n`, { file: 'fit.yml' })).toThrow(
      /fit\.yml: not valid YAML: Excessive alias count/,
    );
  });
});

describe('loadRuncard', () => {
  it('should read the example runcard shipped with partonfit', async () => {
    const { runcard: card, file } = await loadRuncard(EXAMPLE);
    expect(file).toBe(EXAMPLE);
    expect(card.parameters.nodes_per_layer).toEqual([25, 20, 8]);
    expect(card.parameters.optimizer).toEqual({
      optimizer_name: 'Nadam',
      learning_rate: 2.621e-3,
      clipnorm: 6.073e-6,
    });
    expect(card.theory?.theoryid).toBe(200);
  });

  it('should name the file when it cannot be read', async () => {
    await expect(loadRuncard('/nonexistent/fit.yml')).rejects.toThrow(
      '/nonexistent/fit.yml: cannot read the runcard: no such file',
    );
  });

  it('should refuse a runcard saved as UTF-16 or in another encoding, naming the file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-runcard-'));
    const text = await readFile(EXAMPLE, 'utf8');
    const encodings: [string, Uint8Array, string][] = [
      [
        'utf16-bom.yml',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
        'it looks like UTF-16',
      ],
      ['utf16.yml', Buffer.from(text, 'utf16le'), 'it looks like UTF-16'],
      ['latin1.yml', Buffer.from(`# Tübingen\n${text}`, 'latin1'), 'it is not valid UTF-8'],
    ];
    for (const [name, bytes, kind] of encodings) {
      const file = join(folder, name);
      await writeFile(file, bytes);
      await expect(loadRuncard(file)).rejects.toThrow(
        `${file}: 1 problem in the runcard\n  ${file}: the runcard is not UTF-8 text (${kind}): save it as UTF-8`,
      );
    }
  });

  const hasQuickcard = hasSharedData('n3fit_reference/quickcard.yml', 'upstream quickcard test');
  it.skipIf(!hasQuickcard)(
    "should read upstream n3fit's regression quickcard, its `load` too",
    async () => {
      const { runcard } = await loadRuncard(QUICKCARD);
      expect(runcard.load).toBe('weights.weights.h5');
    },
  );
});

describe('parseDatasetInput', () => {
  it('should read a bare name or a flow mapping with the runcard defaults', () => {
    expect(parseDatasetInput('SLACP')).toMatchObject({ dataset: 'SLACP', frac: 1, cfac: [] });
    expect(parseDatasetInput('{dataset: SLACP, bundle: s.npz, frac: 0.5}')).toMatchObject({
      dataset: 'SLACP',
      bundle: 's.npz',
      frac: 0.5,
    });
  });

  it('should name each problem', () => {
    expect(() => parseDatasetInput('{dataset: SLACP, fraq: 0.5}', { source: '--dataset' })).toThrow(
      "--dataset: fraq: unknown key (did you mean 'frac'?)",
    );
    expect(() => parseDatasetInput('{dataset: SLACP, bundle: s.npz, variant: legacy}')).toThrow(
      'variant: cannot be combined with bundle',
    );
    expect(() => parseDatasetInput('{dataset: [')).toThrow(RuncardError);
  });
});
