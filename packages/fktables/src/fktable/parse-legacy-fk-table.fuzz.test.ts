import { damageText, FUZZ_MUTATIONS, fuzzParser } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import {
  disFlavourMap,
  disValues,
  hadronicFlavourMap,
  hadronicValues,
  syntheticLegacyText,
} from './legacy-fk-table.fixture.js';
import { parseLegacyFkTable } from './parse-legacy-fk-table.js';

const DIS = syntheticLegacyText({
  hadronic: false,
  ndata: 3,
  xGrid: [1e-4, 1e-3, 0.01, 0.1, 0.5],
  flavourMap: disFlavourMap([1, 2, 3, 9]),
  rows: [
    [0, 0, ...disValues({ 1: 1.5, 2: -2.25e-3 })],
    [0, 3, ...disValues({ 3: 3, 9: 0.125 })],
    [1, 1, ...disValues({ 2: 0.25 })],
    [2, 4, ...disValues({ 1: 7e-5, 9: -1e3 })],
  ],
});

const HADRONIC = syntheticLegacyText({
  hadronic: true,
  ndata: 2,
  xGrid: [0.01, 0.1, 0.3],
  flavourMap: hadronicFlavourMap([
    [1, 2],
    [2, 1],
    [2, 2],
  ]),
  rows: [
    [0, 0, 1, ...hadronicValues([[1, 2, 4]])],
    [0, 2, 0, ...hadronicValues([[2, 1, 5.5e-2]])],
    [1, 1, 1, ...hadronicValues([[2, 2, -3]])],
  ],
});

describe('parseLegacyFkTable on damaged tables', () => {
  it.each([
    ['DIS', DIS, 21],
    ['hadronic', HADRONIC, 22],
  ])(
    `should read each of ${FUZZ_MUTATIONS} damaged copies of a %s table or name its problem`,
    async (_, original, seed) => {
      const outcome = await fuzzParser({
        original,
        damage: damageText,
        parse: (text) => parseLegacyFkTable(text, { file: 'FK_FUZZ.dat' }),
        seed,
      });
      expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 4);
    },
  );
});
