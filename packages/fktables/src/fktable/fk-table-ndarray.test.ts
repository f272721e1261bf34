import { describe, expect, it } from 'vitest';
import { disTable, hadronicTable, randomValues } from './fk-table.fixture.js';
import { fkTableAsNdarray } from './fk-table-ndarray.js';

describe('fkTableAsNdarray', () => {
  it('should view a DIS table as (data, channel, x) without copying', () => {
    const table = disTable({
      ndata: 2,
      xGrid: [0.1, 0.2, 0.3],
      channels: [1, 2],
      values: randomValues(12, 4),
    });
    const view = fkTableAsNdarray(table);
    expect(view.shape).toEqual([2, 2, 3]);
    expect(view.data).toBe(table.values);
    expect(view.get(1, 0, 2)).toBe(table.values[(1 * 2 + 0) * 3 + 2]);
  });

  it('should view a hadronic table as (data, channel, x1, x2)', () => {
    const table = hadronicTable({
      ndata: 2,
      xGrid: [0.1, 0.2, 0.3],
      channels: [
        [1, 2],
        [2, 1],
      ],
      values: randomValues(36, 5),
    });
    const view = fkTableAsNdarray(table);
    expect(view.shape).toEqual([2, 2, 3, 3]);
    expect(view.get(1, 1, 2, 0)).toBe(table.values[((1 * 2 + 1) * 3 + 2) * 3 + 0]);
  });
});
