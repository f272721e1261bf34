import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { oneOf, positiveInteger } from './validators.js';

describe('positiveInteger', () => {
  it('should return a positive integer unchanged', () => {
    expect(positiveInteger(1, 'logEvery')).toBe(1);
    expect(positiveInteger(100, 'logEvery')).toBe(100);
  });

  it.each([0, -3, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'should reject %s, naming the argument',
    (value) => {
      expect(() => positiveInteger(value, 'checkpoint.every')).toThrow(InvalidArgumentError);
      expect(() => positiveInteger(value, 'checkpoint.every')).toThrow(
        `checkpoint.every: expected a positive integer, got ${value}`,
      );
    },
  );

  it('should add the note to the message', () => {
    expect(() => positiveInteger(0, 'replica', { note: 'replicas are numbered from 1' })).toThrow(
      'replica: expected a positive integer (replicas are numbered from 1), got 0',
    );
  });
});

describe('oneOf', () => {
  it('should return an allowed value and reject others with the list', () => {
    expect(oneOf('cpu', ['cpu', 'wasm'], 'backend')).toBe('cpu');
    expect(() => oneOf('gpu', ['cpu', 'wasm'], 'backend')).toThrow(
      "backend: expected one of cpu, wasm, got 'gpu'",
    );
  });

  it('should compare exactly unless loose', () => {
    expect(() => oneOf('CPU', ['cpu'], 'backend')).toThrow(InvalidArgumentError);
    expect(
      oneOf('glorotNormal', ['glorot_normal', 'glorot_uniform'], 'init', { loose: true }),
    ).toBe('glorot_normal');
    expect(oneOf('ALL', ['all', 'msr'], 'mode', { loose: true })).toBe('all');
  });
});
