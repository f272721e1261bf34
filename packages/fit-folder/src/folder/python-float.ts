import { InvalidArgumentError } from '@partonfit/core';

/**
 * Formats a finite number as Python's `repr(float)` does, the way upstream n3fit's files print
 * numbers: the shortest digits that read back to the same float64, in fixed notation when the
 * decimal exponent e satisfies −4 ≤ e < 16 (always with a fractional part: `1.0`, `0.0001`,
 * `1000000000000000.0`) and in scientific notation otherwise, with a signed exponent of at least
 * two digits (`1e-09`, `1.5e-05`, `1e+16`). Negative zero is `-0.0`.
 *
 * @throws InvalidArgumentError for NaN and ±Infinity, which have no such form
 */
export function pythonFloatRepr(value: number): string {
  if (!Number.isFinite(value)) {
    throw new InvalidArgumentError({
      argument: 'value',
      problem: `expected a finite number, got ${value}`,
    });
  }
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  // toExponential() without an argument gives the shortest round-trip digits: "d.ddde±x"
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    const fractionPart = digits.slice(exponent + 1);
    return `${sign}${integerPart}.${fractionPart === '' ? '0' : fractionPart}`;
  }
  const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
  const exponentSign = exponent < 0 ? '-' : '+';
  const exponentDigits = String(Math.abs(exponent)).padStart(2, '0');
  return `${sign}${digits[0]}${fraction}e${exponentSign}${exponentDigits}`;
}

/**
 * Formats a finite number as a YAML float that every YAML parser reads as a float: Python's
 * `repr` ({@link pythonFloatRepr}), with `.0` inserted before the exponent when the mantissa has
 * no decimal point (`1.0e-09` for `1e-09`), as PyYAML writes it. YAML 1.1 parsers (PyYAML, used by
 * much of the NNPDF tooling) read `1e-09` as a string; YAML 1.2 parsers read both as floats.
 *
 * @throws InvalidArgumentError for NaN and ±Infinity
 */
export function yamlFloat(value: number): string {
  const text = pythonFloatRepr(value);
  return text.includes('.') ? text : text.replace('e', '.0e');
}
