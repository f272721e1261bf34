import { describe, expect, it } from 'vitest';
import { batchIndex, operandIndex } from './batch-index.js';

describe('batchIndex', () => {
  it('should repeat a broadcast leading axis', () => {
    expect(Array.from(batchIndex([2, 1], [2, 3]))).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it('should cycle a broadcast trailing axis and align shorter shapes on the right', () => {
    expect(Array.from(batchIndex([1, 3], [2, 3]))).toEqual([0, 1, 2, 0, 1, 2]);
    expect(Array.from(batchIndex([3], [2, 3]))).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it('should index a rank-3 batch with a broadcast middle axis', () => {
    expect(Array.from(batchIndex([2, 1, 2], [2, 3, 2]))).toEqual([
      0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3,
    ]);
  });
});

describe('operandIndex', () => {
  it('should need no index for a shared matrix or one matrix per entry', () => {
    expect(operandIndex([], [4])).toBeNull();
    expect(operandIndex([1, 1], [2, 3])).toBeNull();
    expect(operandIndex([2, 3], [2, 3])).toBeNull();
  });

  it('should give the index when an axis is broadcast', () => {
    expect(Array.from(operandIndex([2, 1], [2, 3]) ?? [])).toEqual([0, 0, 0, 1, 1, 1]);
  });
});
