import { InvalidArgumentError, parseReplicaSelection } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { taskRanges } from './task-ranges.js';

describe('taskRanges', () => {
  it('should split the selection into consecutive tasks of at most perTask replicas', () => {
    expect(taskRanges(parseReplicaSelection('1-10'), 4)).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10],
    ]);
    expect(taskRanges(parseReplicaSelection('1-3,7,20-21'), 2)).toEqual([
      [1, 2],
      [3, 7],
      [20, 21],
    ]);
    expect(taskRanges([5], 100)).toEqual([[5]]);
  });

  it('should refuse a number of replicas per task that is not a positive integer', () => {
    expect(() => taskRanges([1, 2], 0)).toThrow(InvalidArgumentError);
    expect(() => taskRanges([1, 2], 1.5)).toThrow('--per-task: expected a positive integer');
  });
});
