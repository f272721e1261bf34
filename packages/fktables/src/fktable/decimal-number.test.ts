import { readFile } from 'node:fs/promises';
import { SeededRandom } from '@partonfit/core';
import { hasSharedData } from '@partonfit/testing/shared-data';
import { describe, expect, it } from 'vitest';
import { parseDecimal } from './decimal-number.js';
import { ATLAS_TTBAR_FILE, POSXDQ_FILE } from './legacy-fk-table.fixture.js';
import { parseLegacyFkTable } from './parse-legacy-fk-table.js';

/** The tokens whose `parseDecimal`, alone or inside a line, is not bit for bit `Number`'s. */
function differentFromNumber(tokens: readonly string[]): string[] {
  return tokens.filter((token) => {
    const line = `7\t${token}\t0`;
    const expected = Number(token);
    return (
      !Object.is(parseDecimal(token, 0, token.length), expected) ||
      !Object.is(parseDecimal(line, 2, 2 + token.length), expected)
    );
  });
}

describe('parseDecimal', () => {
  it('should read the values of real and synthetic FK tables as Number does', () => {
    const tokens = [
      '9.1042533516883850e-02',
      '-1.8207663297653198e-01',
      '1.917214e-3',
      '-5.647933e-4',
      '1.0000000000000000e+00',
      '3.4028234e38',
      '0.125',
      '-0',
      '-0.0e+00',
      '+7',
      '00012',
      '1.',
      '.5',
      '1E5',
      '2.5e-22',
      '9.99999999999999e22',
      '123456789012345',
      '1234567890123456',
      '0.1e-21',
      '1e-300',
      '4.9e-324',
      '1e309',
      '1e0000005',
    ];
    expect(differentFromNumber(tokens)).toEqual([]);
  });

  it('should give NaN, as Number does, for malformed tokens', () => {
    const malformed = [
      '-',
      '+',
      '.',
      '1e',
      '1e+',
      '1e-',
      'e5',
      '1.2.3',
      '1-2',
      '--1',
      '1e5.5',
      '1ee5',
      '.e1',
    ];
    expect(differentFromNumber(malformed)).toEqual([]);
    for (const token of malformed) expect(parseDecimal(token, 0, token.length)).toBeNaN();
  });

  it('should agree with Number on 20,000 random values in every notation and on random tokens', () => {
    const random = new SeededRandom(31);
    const tokens: string[] = [];
    for (let k = 0; k < 4000; k++) {
      const value = (random.uniform() - 0.5) * 10 ** Math.floor(random.uniformBetween(-40, 40));
      const digits = Math.floor(random.uniformBetween(0, 17));
      tokens.push(
        value.toExponential(digits),
        value.toPrecision(digits + 1),
        value.toFixed(Math.min(digits, 20)),
        String(value),
      );
    }
    const alphabet = '0123456789.+-eE';
    for (let k = 0; k < 4000; k++) {
      const length = 1 + Math.floor(random.uniformBetween(0, 12));
      tokens.push(
        Array.from({ length }, () => alphabet[Math.floor(random.uniform() * alphabet.length)]).join(
          '',
        ),
      );
    }
    expect(differentFromNumber(tokens)).toEqual([]);
  });
});

describe.skipIf(!hasSharedData('theory_200', 'the real-table parseDecimal test'))(
  'parseLegacyFkTable with parseDecimal on real tables',
  () => {
    it.each([
      ['FK_POSXDQ', POSXDQ_FILE, 14],
      ['FK_ATLASTTBARTOT13TEV', ATLAS_TTBAR_FILE, 196],
    ])('should store every value of %s as Number reads its token', async (_, file, flavours) => {
      const text = await readFile(file, 'utf8');
      const table = parseLegacyFkTable(text, { file });
      const nx = table.xGrid.length;
      const hadronic = flavours === 196;
      const xBlock = hadronic ? nx * nx : nx;
      const channelOf = new Map(
        table.channels.map((channel, c) => [
          typeof channel === 'number' ? channel : 14 * channel[0] + channel[1],
          c,
        ]),
      );
      const rows = text
        .slice(text.indexOf('\n', text.indexOf('{FastKernel')) + 1)
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter((tokens) => tokens.length > 1);
      let compared = 0;
      for (const tokens of rows) {
        const [n, a, b] = tokens.map(Number);
        const offset = hadronic ? a * nx + b : a;
        const first = hadronic ? 3 : 2;
        channelOf.forEach((c, flavour) => {
          const stored = table.values[(n * table.channels.length + c) * xBlock + offset];
          expect(Object.is(stored, Number(tokens[first + flavour]))).toBe(true);
          compared += 1;
        });
      }
      expect(compared).toBeGreaterThan(1000);
    });
  },
);
