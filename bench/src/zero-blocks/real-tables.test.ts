import { readFile } from 'node:fs/promises';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { beforeAll, describe, expect, it } from 'vitest';
import { measureRealTableZeroBlocks, realHadronicTables } from './real-tables.js';

const TTBAR = 'theory_200/fastkernel/FK_ATLASTTBARTOT13TEV.dat';
const present = hasSharedData(TTBAR, "the real tables' zero-block measurement");

/**
 * Non-zero values of the text table's FastKernel rows (data, x1, x2, then 196 flavour pairs at
 * 14·i + j) once mirrored channels are merged: (i, j) at (x1, x2) and (j, i) at (x2, x1) are one
 * value, non-zero if either is.
 */
async function nonZeroMergedValues(file: string): Promise<number> {
  const text = await readFile(file, 'utf8');
  const section = text.slice(text.indexOf('{FastKernel'));
  const nonZero = new Set<string>();
  for (const line of section.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 4) continue;
    const [n, a, b] = fields.slice(0, 3);
    fields.slice(3).forEach((value, pair) => {
      if (Number(value) === 0) return;
      const [i, j] = [Math.floor(pair / 14), pair % 14];
      nonZero.add(i <= j ? `${n} ${i} ${j} ${a} ${b}` : `${n} ${j} ${i} ${b} ${a}`);
    });
  }
  return nonZero.size;
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
    // 81 channels, all pairs of 9 flavours: 36 mirrored pairs merged
    expect(entry).toMatchObject({ table: TTBAR, x: 30, channels: 45, data: 1, replicas: 2 });
    const nonZero = await nonZeroMergedValues(SHARED_DATA + TTBAR);
    expect(entry.zeroFraction).toBeCloseTo(1 - nonZero / (45 * 30 * 30), 12);
    expect(entry.zeroFraction).toBeCloseTo(0.162, 3);
    expect(entry.sparseMs).toBeGreaterThan(0);
    expect(entry.denseMs).toBeGreaterThan(0);
  });
});
