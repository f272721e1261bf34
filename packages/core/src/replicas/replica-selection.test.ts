import { InvalidArgumentError } from '../errors/index.js';
import { describe, expect, it } from 'vitest';
import { formatReplicaSelection, parseReplicaSelection } from './replica-selection.js';

describe('parseReplicaSelection', () => {
  it('should read numbers, ranges and lists, ascending and without repeats', () => {
    expect(parseReplicaSelection('7')).toEqual([7]);
    expect(parseReplicaSelection('1-5')).toEqual([1, 2, 3, 4, 5]);
    expect(parseReplicaSelection('10, 2-4,3')).toEqual([2, 3, 4, 10]);
    expect(parseReplicaSelection('1-100')).toHaveLength(100);
  });

  it('should name the part that is not a replica', () => {
    for (const bad of ['0', '5-2', 'a', '1,,2', '-3', '1-2-3', '']) {
      expect(() => parseReplicaSelection(bad)).toThrow(InvalidArgumentError);
    }
    expect(() => parseReplicaSelection('1-10,x')).toThrow("--replicas: 'x' is not a replica");
  });

  it('should write a selection back compactly', () => {
    expect(formatReplicaSelection([1, 2, 3, 7, 9, 10])).toBe('1-3,7,9-10');
    expect(formatReplicaSelection(parseReplicaSelection('5,1-3'))).toBe('1-3,5');
  });
});
