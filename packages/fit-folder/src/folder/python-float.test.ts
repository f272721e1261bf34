import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { pythonFloatRepr, yamlFloat } from './python-float.js';

/** (value, Python 3 `repr(value)`), printed by CPython. */
const PYTHON_REPRS: readonly [number, string][] = [
  [0, '0.0'],
  [-0, '-0.0'],
  [1, '1.0'],
  [-2.5, '-2.5'],
  [1e-9, '1e-09'],
  [1.29708482343957e-9, '1.29708482343957e-09'],
  [0.0001, '0.0001'],
  [0.00012, '0.00012'],
  [1e-5, '1e-05'],
  [-1.5e-5, '-1.5e-05'],
  [123456789012345.6, '123456789012345.6'],
  [1e16, '1e+16'],
  [1.2345e16, '1.2345e+16'],
  [9999999999999998, '9999999999999998.0'],
  [1e22, '1e+22'],
  [1.65 * 1.65, '2.7224999999999997'],
  [0.1, '0.1'],
  [1 / 3, '0.3333333333333333'],
  [-0.46810004115104675, '-0.46810004115104675'],
  [5e-324, '5e-324'],
  [1.7976931348623157e308, '1.7976931348623157e+308'],
  [100, '100.0'],
  [1e15, '1000000000000000.0'],
  [0.000944112105452451, '0.000944112105452451'],
  [4.280201776965531e-7, '4.280201776965531e-07'],
  [3e-7, '3e-07'],
];

describe('pythonFloatRepr', () => {
  it.each(PYTHON_REPRS)('should print %s as Python prints %s', (value, expected) => {
    expect(pythonFloatRepr(value)).toBe(expected);
  });

  it('should read back to the same float64', () => {
    for (const [value] of PYTHON_REPRS) expect(Number(pythonFloatRepr(value))).toBe(value);
  });

  it('should reject NaN and infinities with a typed error', () => {
    expect(() => pythonFloatRepr(Number.NaN)).toThrow(InvalidArgumentError);
    expect(() => pythonFloatRepr(Number.POSITIVE_INFINITY)).toThrow(InvalidArgumentError);
  });
});

describe('yamlFloat', () => {
  it('should give mantissas without a decimal point a .0, as PyYAML does', () => {
    expect(yamlFloat(1e-9)).toBe('1.0e-09');
    expect(yamlFloat(1e16)).toBe('1.0e+16');
    expect(yamlFloat(1.5e-5)).toBe('1.5e-05');
    expect(yamlFloat(0.25)).toBe('0.25');
    expect(yamlFloat(1)).toBe('1.0');
  });
});
