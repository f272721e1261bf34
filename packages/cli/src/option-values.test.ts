import { describe, expect, it } from 'vitest';
import { UsageError } from './define-command.js';
import { backendOption, positiveOption, scalesOption } from './option-values.js';

describe('backendOption', () => {
  it('should accept an absent value and every backend request', () => {
    expect(backendOption(undefined)).toBeUndefined();
    for (const value of ['auto', 'tensorflow', 'native', 'wasm', 'cpu']) {
      expect(backendOption(value)).toBe(value);
    }
  });

  it('should refuse anything else as a usage error listing the accepted values', () => {
    expect(() => backendOption('gpu')).toThrow(UsageError);
    expect(() => backendOption('gpu')).toThrow(
      "--backend: expected one of auto, tensorflow, native, wasm, cpu, got 'gpu'",
    );
  });
});

describe('positiveOption', () => {
  it('should read positive integers and, when asked, positive numbers', () => {
    expect(positiveOption('--nrep', '100')).toBe(100);
    expect(positiveOption('--chi2-threshold', '4.5', 'number')).toBe(4.5);
  });

  it.each(['0', '-3', '1.5', 'x', '', ' '])("should refuse '%s' for an integer option", (text) => {
    expect(() => positiveOption('--nrep', text)).toThrow(
      `--nrep: expected a positive integer, got '${text}'`,
    );
  });

  it('should refuse a number that is not positive or not finite', () => {
    expect(() => positiveOption('--chi2-threshold', '0', 'number')).toThrow(UsageError);
    expect(() => positiveOption('--chi2-threshold', 'Infinity', 'number')).toThrow(
      "--chi2-threshold: expected a positive number, got 'Infinity'",
    );
  });
});

describe('scalesOption', () => {
  it('should read scales in GeV separated by commas, spaces allowed', () => {
    expect(scalesOption('--q', '1.65,100')).toEqual([1.65, 100]);
    expect(scalesOption('--q', ' 91.1876 , 1e3')).toEqual([91.1876, 1000]);
  });

  it.each(['', 'x', '1.65,', '1.65,,100', '100,-1', '0', '1.65;100', 'Infinity'])(
    "should refuse '%s' as a usage error naming the option",
    (text) => {
      expect(() => scalesOption('--q', text)).toThrow(UsageError);
      expect(() => scalesOption('--q', text)).toThrow(
        `--q: expected scales Q in GeV separated by commas, e.g. 1.65,100; got '${text}'`,
      );
    },
  );
});
