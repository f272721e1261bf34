import { readFile } from 'node:fs/promises';
import { parseNpz } from '@partonfit/io';
import { damageBytes, FUZZ_MUTATIONS, fuzzParser } from '@partonfit/testing';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { describe, expect, it } from 'vitest';
import { bundleFromArrays } from './bundle.js';

const SLACP = `${SHARED_DATA}bundles/SLACP.npz`;
const hasBundle = hasSharedData('bundles/SLACP.npz', 'fuzz test of the npz bundle reader');

describe.skipIf(!hasBundle)('the npz bundle reader on damaged files', () => {
  it(`should read each of ${FUZZ_MUTATIONS} damaged copies of SLACP.npz or name the problem`, async () => {
    const outcome = await fuzzParser({
      original: new Uint8Array(await readFile(SLACP)),
      damage: damageBytes,
      parse: (bytes) => bundleFromArrays(parseNpz(bytes, { file: SLACP }), { file: SLACP }),
      seed: 41,
    });
    expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 4);
  });
});
