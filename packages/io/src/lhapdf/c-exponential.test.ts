import { describe, expect, it } from 'vitest';
import { formatExponential } from './c-exponential.js';

/** [value, C's %.7E, C's %.0e, C's %.3e], printed by Python's printf-style formatting. */
const PRINTF: readonly [number, string, string, string][] = [
  [1.00390625, '1.0039062E+00', '1e+00', '1.004e+00'],
  [1.01171875, '1.0117188E+00', '1e+00', '1.012e+00'],
  [-0, '-0.0000000E+00', '-0e+00', '-0.000e+00'],
  [0, '0.0000000E+00', '0e+00', '0.000e+00'],
  [1e-100, '1.0000000E-100', '1e-100', '1.000e-100'],
  [-1e-100, '-1.0000000E-100', '-1e-100', '-1.000e-100'],
  [167772165, '1.6777216E+08', '2e+08', '1.678e+08'],
  [2.5, '2.5000000E+00', '2e+00', '2.500e+00'],
  [0.5, '5.0000000E-01', '5e-01', '5.000e-01'],
  [9.99999995, '9.9999999E+00', '1e+01', '1.000e+01'],
  [1.65, '1.6500000E+00', '2e+00', '1.650e+00'],
  [91.1876, '9.1187600E+01', '9e+01', '9.119e+01'],
  [5e-324, '4.9406565E-324', '5e-324', '4.941e-324'],
  [1.7976931348623157e308, '1.7976931E+308', '2e+308', '1.798e+308'],
  [0.123456789, '1.2345679E-01', '1e-01', '1.235e-01'],
  [-2.25e-7, '-2.2500000E-07', '-2e-07', '-2.250e-07'],
  [1e21, '1.0000000E+21', '1e+21', '1.000e+21'],
  [123.456, '1.2345600E+02', '1e+02', '1.235e+02'],
];

describe('formatExponential', () => {
  it.each(PRINTF)('should write %s as C printf does', (value, digits7, digits0, digits3) => {
    expect(formatExponential(value, 7, 'E')).toBe(digits7);
    expect(formatExponential(value, 0, 'e')).toBe(digits0);
    expect(formatExponential(value, 3, 'e')).toBe(digits3);
  });

  it('should round exact ties to the even digit where toExponential rounds them up', () => {
    expect((1.00390625).toExponential(7)).toBe('1.0039063e+0');
    expect(formatExponential(1.00390625, 7, 'e')).toBe('1.0039062e+00');
    expect(formatExponential(-1.00390625, 7, 'e')).toBe('-1.0039062e+00');
    // just above the tie: rounds up
    expect(formatExponential(1.0039062500000002, 7, 'e')).toBe('1.0039063e+00');
  });

  it('should read back as the same double for values with eight significant digits', () => {
    for (const text of ['1.2345678e-05', '-9.9999999e+02', '3.3074891e-01', '1.0000001e+00']) {
      const value = Number(text);
      expect(Number(formatExponential(value, 7, 'e'))).toBe(value);
      expect(formatExponential(value, 7, 'e')).toBe(text);
    }
  });
});
