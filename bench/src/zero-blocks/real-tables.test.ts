import { readFile } from 'node:fs/promises';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { beforeAll, describe, expect, it } from 'vitest';
import { measureRealTableZeroBlocks, realHadronicTables } from './real-tables.js';

const TTBAR = 'theory_200/fastkernel/FK_ATLASTTBARTOT13TEV.dat';
const present = hasSharedData(TTBAR, "the real tables' zero-block measurement");

/** Non-zero values of the text table's FastKernel rows (data, x1, x2, then 196 flavour pairs). */
async function nonZeroValues(file: string): Promise<number> {
  const text = await readFile(file, 'utf8');
  const section = text.slice(text.indexOf('{FastKernel'));
  let count = 0;
  for (const line of section.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 4) continue;
    count += fields.slice(3).filter((value) => Number(value) !== 0).length;
  }
  return count;
}

describe('zero blocks of real hadronic tables', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('should find no table without the shared data', async () => {
    expect(await realHadronicTables('/nonexistent/shared/data')).toEqual([]);
  });

  it.skipIf(!present)('should find the hadronic tables and count their zeros', async () => {
    expect(await realHadronicTables(SHARED_DATA)).toEqual([TTBAR]);
    const [entry] = await measureRealTableZeroBlocks(SHARED_DATA, 2, 1);
    expect(entry).toMatchObject({ table: TTBAR, x: 30, channels: 81, data: 1, replicas: 2 });
    const nonZero = await nonZeroValues(SHARED_DATA + TTBAR);
    expect(entry.zeroFraction).toBeCloseTo(1 - nonZero / (81 * 30 * 30), 12);
    expect(entry.zeroFraction).toBeCloseTo(0.162, 3);
    expect(entry.sparseMs).toBeGreaterThan(0);
    expect(entry.denseMs).toBeGreaterThan(0);
  });
});
