import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRuncard } from './load-runcard.js';
import { runcardDifference, runcardDigest } from './runcard-digest.js';

/** The embedded closure runcard's text. */
const BASE = readFileSync(
  fileURLToPath(new URL('../../../../examples/closure.yml', import.meta.url)),
  'utf8',
);

describe('runcardDigest', () => {
  it('should not depend on key order, comments or number spelling', () => {
    const parameters = BASE.indexOf('parameters:');
    const fitting = BASE.indexOf('fitting:');
    const reordered = [
      '# the same fit, its sections in another order',
      BASE.slice(parameters, fitting).replace('1.0e-3', '0.001'),
      BASE.slice(0, parameters),
      BASE.slice(fitting).replace(
        '{ dataset: CLOSURE_F2P, frac: 0.75 }',
        '{ frac: 0.75, dataset: CLOSURE_F2P }',
      ),
    ].join('\n');
    expect(reordered).not.toBe(BASE);
    const digest = runcardDigest(parseRuncard(BASE).runcard);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(runcardDigest(parseRuncard(reordered).runcard)).toBe(digest);
    expect(runcardDifference(parseRuncard(BASE).runcard, parseRuncard(reordered).runcard)).toBe(
      undefined,
    );
  });

  it('should name the first setting two runcards give different values', () => {
    const base = parseRuncard(BASE).runcard;
    const faster = parseRuncard(BASE.replace('1.0e-3', '5.0e-3')).runcard;
    expect(runcardDigest(faster)).not.toBe(runcardDigest(base));
    expect(runcardDifference(base, faster)).toEqual({
      keyPath: 'parameters.optimizer.learning_rate',
      first: '0.001',
      second: '0.005',
    });
    const fewer = parseRuncard(BASE.replace('  - { dataset: CLOSURE_F2D, frac: 0.75 }\n', ''));
    expect(fewer.runcard.dataset_inputs).toHaveLength(base.dataset_inputs.length - 1);
    expect(runcardDifference(base, fewer.runcard)).toMatchObject({
      keyPath: 'dataset_inputs',
    });
    const otherSet = parseRuncard(
      BASE.replace('CLOSURE_F2D, frac: 0.75', 'CLOSURE_F2D, frac: 0.5'),
    ).runcard;
    expect(runcardDifference(base, otherSet)).toEqual({
      keyPath: 'dataset_inputs[1].frac',
      first: '0.75',
      second: '0.5',
    });
  });

  it('should leave the evolution section out: it names what evolve does, not how the fit fits', () => {
    const withTheory = parseRuncard(BASE).runcard;
    expect(withTheory.evolution?.theory_card).toBe('toyLH-LO');
    const base = parseRuncard(BASE.replace(/^evolution:\n( .*\n)+/m, '')).runcard;
    expect(base.evolution).toBe(undefined);
    expect(runcardDigest(withTheory)).toBe(runcardDigest(base));
    expect(runcardDifference(base, withTheory)).toBe(undefined);
  });
});
