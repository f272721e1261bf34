import { readFile } from 'node:fs/promises';
import { damageBytes, fuzzParser } from '@partonfit/testing';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { describe, expect, it } from 'vitest';
import { parseEkoOperator } from './eko-operator.js';

const EKO = `${SHARED_DATA}eko/LHCB_DY_13TEV_DIMUON.eko.tar`;
/** Each copy decompresses 8 MB of operators: fewer copies than the default keep this to seconds. */
const MUTATIONS = 300;

describe.skipIf(!hasSharedData('eko/LHCB_DY_13TEV_DIMUON.eko.tar', 'fuzz test of the EKO reader'))(
  'the EKO reader on damaged files',
  () => {
    it(`should read each of ${MUTATIONS} damaged copies of the LHCb EKO or name the problem`, async () => {
      const outcome = await fuzzParser({
        original: new Uint8Array(await readFile(EKO)),
        damage: damageBytes,
        parse: (bytes) => parseEkoOperator(bytes, EKO),
        seed: 16,
        mutations: MUTATIONS,
      });
      expect(outcome.refused).toBeGreaterThan(MUTATIONS / 4);
    }, 120_000);
  },
);
