import { parseRuncard, RuncardError } from '@partonfit/core';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '@partonfit/core';
import { evaluateSpace, randomPoint, spaceLabels } from '../sampler/index.js';
import { HYPEROPT_RUNCARD } from '../scan/scan.fixture.js';
import { scanSpace } from './scan-space.js';

/** n3fit's regression scan (hyper-quickcard.yml), its search space on the example's data. */
const QUICKCARD_SCAN = `
hyperscan_config:
  stopping:
    min_epochs: 2e1
    max_epochs: 5e1
    min_patience: 0.10
    max_patience: 0.40
  positivity:
    min_multiplier: 1.01
    max_multiplier: 1.10
  optimizer:
    - optimizer_name: 'Adadelta'
      learning_rate:
        min: 0.008
        max: 0.07
      clipnorm:
        min: 0.1
        max: 2.0
    - optimizer_name: 'RMSprop'
      learning_rate:
        sampling: log
        min: 0.01
        max: 1.5
  architecture:
    initializers: ['glorot_normal', 'glorot_uniform']
    n_layers: [2,3,4,5]
    min_units: 10
    max_units: 50
    activations: ['sigmoid', 'tanh']
`;

async function scanRuncard(replace: (text: string) => string) {
  const text = await readFile(HYPEROPT_RUNCARD, 'utf8');
  return parseRuncard(replace(text), { file: 'scan.yml' }).runcard;
}

const withQuickcardSpace = (text: string) =>
  text.replace(/hyperscan_config:\n(?: {2}.*\n)+/, QUICKCARD_SCAN.trimStart());

describe("a scan's search space (n3fit HyperScanner)", () => {
  it("labels every sampler as n3fit does, and nests the optimisers' own rates", async () => {
    const space = scanSpace(await scanRuncard(withQuickcardSpace));
    expect(spaceLabels(space).sort()).toEqual(
      [
        'epochs',
        'stopping_patience',
        'optimizer',
        'Adadelta_learning_rate',
        'Adadelta_clipnorm',
        'RMSprop_learning_rate',
        'multiplier',
        'activation_per_layer',
        'nodes_per_layer',
        ...[2, 3, 4, 5].flatMap((n) => Array.from({ length: n }, (_, i) => `nl${n}:-${i}/${n}`)),
        'initializer',
      ].sort(),
    );
  });

  it("evaluates to a trial's space_vals: the whole parameters with the samples in place", async () => {
    const space = scanSpace(await scanRuncard(withQuickcardSpace));
    const random = new SeededRandom(5);
    for (let draw = 0; draw < 50; draw++) {
      const point = randomPoint(space, random);
      const values = evaluateSpace(space, point) as Record<string, unknown>;
      const nodes = values.nodes_per_layer as number[];
      expect(nodes.length - 1).toBe([2, 3, 4, 5][point.nodes_per_layer]);
      expect(nodes.at(-1)).toBe(8);
      for (const units of nodes.slice(0, -1)) {
        expect(Number.isInteger(units) && units >= 10 && units <= 50).toBe(true);
      }
      expect(['sigmoid', 'tanh']).toContain(values.activation_per_layer);
      expect(Number.isInteger(values.epochs) && (values.epochs as number) >= 20).toBe(true);
      // multiples of q = (0.4 − 0.1)/5 = 0.06, as hyperopt's quniform rounds x/q
      const steps = (values.stopping_patience as number) / 0.06;
      expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-9);
      // RMSprop's rate is log-uniform from 0.01 without a clipnorm; Adadelta's has one from 0.1
      const optimizer = values.optimizer as Partial<Record<string, number | string>>;
      const rmsprop = optimizer.optimizer_name === 'RMSprop';
      expect(optimizer.clipnorm === undefined).toBe(rmsprop);
      expect(Number(optimizer.learning_rate) >= (rmsprop ? 0.01 : 0.008)).toBe(true);
      expect(rmsprop || Number(optimizer.clipnorm) >= 0.1).toBe(true);
      const positivity = values.positivity as Record<string, number>;
      expect(positivity.multiplier).toBeGreaterThanOrEqual(1.01);
      expect(positivity.initial).toBe(10);
      expect(values.threshold_chi2).toBe(5);
    }
  });

  it('refuses a runcard without a search space, or one that samples nothing', async () => {
    const none = await scanRuncard((text) => text.replace(/hyperscan_config:\n(?: {2}.*\n)+/, ''));
    expect(() => scanSpace(none, 'scan.yml')).toThrow(RuncardError);
    expect(() => scanSpace(none, 'scan.yml')).toThrow(
      /hyperscan_config: a scan needs a search space/,
    );
    const empty = await scanRuncard((text) =>
      text.replace(
        /hyperscan_config:\n(?: {2}.*\n)+/,
        'hyperscan_config:\n  architecture:\n    activations: []\n',
      ),
    );
    expect(() => scanSpace(empty, 'scan.yml')).toThrow(/the search space is empty/);
  });
});
