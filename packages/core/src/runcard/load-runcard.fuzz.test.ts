import { readFile } from 'node:fs/promises';
import { CLOSURE_RUNCARD, damageText, FUZZ_MUTATIONS, fuzzParser } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { parseRuncard } from './load-runcard.js';

describe('parseRuncard on damaged runcards', () => {
  it(`should read each of ${FUZZ_MUTATIONS} damaged copies of the closure runcard or name its problem`, async () => {
    const outcome = await fuzzParser({
      original: await readFile(CLOSURE_RUNCARD, 'utf8'),
      damage: damageText,
      parse: (text) => parseRuncard(text, { file: 'closure.yml' }).runcard,
      seed: 11,
    });
    expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 4);
  });
});
