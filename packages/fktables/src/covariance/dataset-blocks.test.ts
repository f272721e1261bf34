import { describe, expect, it } from 'vitest';
import { syntheticCommonData } from '../commondata/commondata.fixture.js';
import { datasetBlocks, datasetOffsets } from './dataset-blocks.js';

/** A dataset with `ndata` points and a stat error, plus one ADD uncertainty per given type. */
function dataset(name: string, ndata: number, types: readonly string[] = [], value = 1) {
  return syntheticCommonData({
    name,
    central: Array<number>(ndata).fill(1),
    uncertainties: [
      { name: 'stat', treatment: 'ADD', type: 'UNCORR', values: Array<number>(ndata).fill(0.1) },
      ...types.map((type) => ({
        treatment: 'ADD' as const,
        type,
        values: Array<number>(ndata).fill(value),
      })),
    ],
  });
}

const shape = (blocks: ReturnType<typeof datasetBlocks>) =>
  blocks.map(({ offset, size, datasets }) => [offset, size, datasets]);

describe('datasetBlocks', () => {
  it('should give each dataset its own block when nothing is shared across datasets', () => {
    const blocks = datasetBlocks([
      dataset('A', 2, ['CORR', 'THEORYCORR']),
      dataset('B', 3, ['CORR', 'SKIP']),
    ]);
    expect(shape(blocks)).toEqual([
      [0, 2, [0]],
      [2, 3, [1]],
    ]);
  });

  it('should join datasets sharing a special name, with everything between them', () => {
    const blocks = datasetBlocks([
      dataset('A', 1),
      dataset('HERA1', 2, ['HC_sys1']),
      dataset('SLAC', 3, ['SLACNORM']),
      dataset('HERA2', 1, ['HC_sys1']),
      dataset('B', 1, ['SLACNORM2']),
    ]);
    expect(shape(blocks)).toEqual([
      [0, 1, [0]],
      [1, 6, [1, 2, 3]],
      [7, 1, [4]],
    ]);
  });

  it('should merge overlapping groups into one block', () => {
    const blocks = datasetBlocks([
      dataset('A', 1, ['X']),
      dataset('B', 1, ['Y']),
      dataset('C', 1, ['X']),
      dataset('D', 1, ['Y']),
    ]);
    expect(shape(blocks)).toEqual([[0, 4, [0, 1, 2, 3]]]);
  });

  it('should not join datasets through an all-zero special systematic, and skip empty datasets', () => {
    const blocks = datasetBlocks([
      dataset('A', 1, ['LUMI']),
      dataset('B', 1, ['LUMI'], 0),
      dataset('C', 0, ['LUMI']),
    ]);
    expect(shape(blocks)).toEqual([
      [0, 1, [0]],
      [1, 1, [1]],
    ]);
    expect(datasetOffsets([dataset('A', 1), dataset('C', 0), dataset('B', 2)])).toEqual([
      0, 1, 1, 3,
    ]);
  });
});
