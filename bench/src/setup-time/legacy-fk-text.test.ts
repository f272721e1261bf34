import { SeededRandom } from '@partonfit/core';
import { interpolationXGrid, parseLegacyFkTable } from '@partonfit/fktables';
import { describe, expect, it } from 'vitest';
import { randomDisTable, randomHadronicTable } from '../workloads/synthetic-tables.js';
import { legacyFkText } from './legacy-fk-text.js';

const xGrid = interpolationXGrid({ xMin: 1e-4, xMax: 0.8, nodes: 8 });

function expectSameValues(read: Float64Array, written: Float64Array): void {
  expect(read.length).toBe(written.length);
  read.forEach((value, i) => {
    expect(value / written[i]).toBeCloseTo(1, 6);
  });
}

describe('legacyFkText', () => {
  it('should write a DIS table that the legacy reader reads back to 7 digits', () => {
    const table = randomDisTable('DISTEST', 3, [1, 2, 9], xGrid, new SeededRandom(5));
    const read = parseLegacyFkTable(legacyFkText(table), { file: 'FK_DISTEST.dat' });
    expect(read).toMatchObject({ name: 'DISTEST', hadronic: false, ndata: 3, q0: 1.65 });
    expect(read.channels).toEqual([1, 2, 9]);
    expect(Array.from(read.xGrid)).toEqual(Array.from(xGrid));
    expectSameValues(read.values, table.values);
  });

  it('should write a hadronic table without its all-zero node pairs', () => {
    const channels: [number, number][] = [
      [1, 2],
      [2, 2],
      [9, 1],
    ];
    const dense = randomHadronicTable('HADTEST', 2, channels, xGrid, new SeededRandom(6));
    const values = Float64Array.from(dense.values);
    // Node pair (0, 0) is empty in every channel of both points: its row is left out.
    for (let block = 0; block < 2 * channels.length; block++) values[block * 64] = 0;
    const text = legacyFkText({ ...dense, values });
    expect(text.split('\n').filter((line) => /^\d+\t/.test(line)).length).toBe(2 * 63);
    const read = parseLegacyFkTable(text, { file: 'FK_HADTEST.dat' });
    expect(read).toMatchObject({ name: 'HADTEST', hadronic: true, ndata: 2 });
    expect(read.channels).toEqual(channels);
    expectSameValues(
      read.values.filter((value) => value !== 0),
      values.filter((value) => value !== 0),
    );
    expect(read.values[0]).toBe(0);
  });
});
