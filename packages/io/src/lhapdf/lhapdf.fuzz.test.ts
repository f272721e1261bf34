import { damageText, FUZZ_MUTATIONS, fuzzParser } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { infoText, memberText } from './lhapdf.fixture.js';
import { parseLhapdfGrid } from './lhapdf-grid.js';
import { parseLhapdfInfo } from './lhapdf-set.js';

const PIDS = [-3, -2, -1, 1, 2, 3, 21];
const LOCATION = { name: 'FUZZ', folder: '/sets/FUZZ', infoFile: '/sets/FUZZ/FUZZ.info' };
const INFO = infoText({
  pids: PIDS,
  numMembers: 2,
  extra: [
    'OrderQCD: 2',
    'XMin: 1e-5',
    'XMax: 1',
    'QMin: 1.65',
    'QMax: 100',
    'MZ: 91.1876',
    'MUp: 0',
    'MCharm: 1.51',
    'AlphaS_MZ: 0.118',
    'AlphaS_Qs: [1.65, 10, 100]',
    'AlphaS_Vals: [0.33, 0.18, 0.118]',
  ].join('\n'),
});
const MEMBER = memberText({
  xKnots: [1e-5, 1e-3, 0.1, 0.5, 1],
  blocks: [{ qKnots: [1.65, 5, 10] }, { qKnots: [10, 50, 100] }],
  pids: PIDS,
  value: (x, q, pid) => x ** 0.3 * (1 - x) ** 3 * (1 + pid / 10) * Math.log(q),
});

describe('the LHAPDF readers on damaged files', () => {
  it(`should read each of ${FUZZ_MUTATIONS} damaged .info files or name the problem`, async () => {
    const outcome = await fuzzParser({
      original: INFO,
      damage: damageText,
      parse: (text) => parseLhapdfInfo(text, LOCATION),
      seed: 31,
    });
    expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 10);
  });

  it(`should read each of ${FUZZ_MUTATIONS} damaged member files or name the problem`, async () => {
    const set = parseLhapdfInfo(INFO, LOCATION);
    const outcome = await fuzzParser({
      original: MEMBER,
      damage: damageText,
      parse: (text) => parseLhapdfGrid(text, { set, member: 0, file: '/sets/FUZZ/FUZZ_0000.dat' }),
      seed: 32,
    });
    expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 4);
  });
});
