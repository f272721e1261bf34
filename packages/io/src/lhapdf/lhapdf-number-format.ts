import { InvalidArgumentError } from '@partonfit/core';
import { formatExponential } from './c-exponential.js';

const EXPONENTS: readonly string[] = ['e', 'E'];

/**
 * How the numbers of an LHAPDF set are written: C's `%.<fractionDigits>e`. NNPDF sets use 7
 * digits, lower-case `e` in the `.info` file and the replicas, upper-case `E` in member 0.
 */
export interface LhapdfNumberFormat {
  /** Digits after the point (default 7: eight significant digits). */
  readonly fractionDigits?: number;
  /** The exponent symbol (default `e`). */
  readonly exponent?: 'e' | 'E';
}

/** Writes finite numbers in a set's format. */
export interface NumberWriter {
  /** The number's text, e.g. `-1.6904794e-01`. */
  readonly write: (value: number) => string;
  /** The length of a negative number with a two-digit exponent: the width of a value column. */
  readonly width: number;
}

/**
 * The writer for `format`.
 *
 * @throws InvalidArgumentError when `fractionDigits` is not an integer from 1 to 16 or the
 *   exponent symbol is neither `e` nor `E`
 */
export function numberWriter(format: LhapdfNumberFormat = {}): NumberWriter {
  const fractionDigits = format.fractionDigits ?? 7;
  const exponent = format.exponent ?? 'e';
  if (!Number.isInteger(fractionDigits) || fractionDigits < 1 || fractionDigits > 16) {
    throw new InvalidArgumentError({
      argument: 'format.fractionDigits',
      problem: `expected an integer from 1 to 16, got ${fractionDigits}`,
    });
  }
  if (!EXPONENTS.includes(exponent)) {
    throw new InvalidArgumentError({
      argument: 'format.exponent',
      problem: `expected 'e' or 'E', got '${exponent}'`,
    });
  }
  return {
    write: (value) => formatExponential(value, fractionDigits, exponent),
    width: fractionDigits + 7,
  };
}
