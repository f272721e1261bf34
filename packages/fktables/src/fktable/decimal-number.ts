/** 10^k for k = 0…22, every one exact in float64 (10^22 < 2^53 · 2^22). */
const EXACT_POWERS_OF_TEN = Float64Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
/** Significant digits whose integer is exact in float64 (10^15 < 2^53). */
const EXACT_DIGITS = 15;
const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const DIGIT_ZERO = 48;
const DIGIT_NINE = 57;
const LOWER_E = 101;
const UPPER_E = 69;

/**
 * `Number(text.slice(start, end))`, bit for bit, without making the substring for the common
 * decimal tokens of FK tables (`-1.234567e-05`, `0.5`): a token `[+-]digits[.digits][e[+-]digits]`
 * of at most 15 digits whose decimal exponent, less its fraction digits, lies in −22…22 is one
 * exact integer times or divided by one exact power of ten, so the one rounding of that product
 * or quotient is the correctly rounded value `Number` gives (Clinger's fast path). Every other
 * token (more digits, larger exponents, anything not of that form) goes to `Number`.
 *
 * @param text - the text holding the token
 * @param start - index of the token's first character
 * @param end - index after its last character
 */
export function parseDecimal(text: string, start: number, end: number): number {
  let position = start;
  let code = text.charCodeAt(position);
  const negative = code === MINUS;
  if (negative || code === PLUS) code = text.charCodeAt(++position);
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = 0;
  while (position < end && code >= DIGIT_ZERO && code <= DIGIT_NINE) {
    mantissa = mantissa * 10 + (code - DIGIT_ZERO);
    digits += 1;
    code = text.charCodeAt(++position);
  }
  if (position < end && code === DOT) {
    code = text.charCodeAt(++position);
    while (position < end && code >= DIGIT_ZERO && code <= DIGIT_NINE) {
      mantissa = mantissa * 10 + (code - DIGIT_ZERO);
      digits += 1;
      fractionDigits += 1;
      code = text.charCodeAt(++position);
    }
  }
  if (digits === 0 || digits > EXACT_DIGITS) return Number(text.slice(start, end));
  let exponent = 0;
  if (position < end && (code === LOWER_E || code === UPPER_E)) {
    code = text.charCodeAt(++position);
    const negativeExponent = code === MINUS;
    if (negativeExponent || code === PLUS) code = text.charCodeAt(++position);
    const exponentStart = position;
    // Three exponent digits at most: longer ones are out of the fast path's range anyway.
    while (
      position < end &&
      position - exponentStart < 3 &&
      code >= DIGIT_ZERO &&
      code <= DIGIT_NINE
    ) {
      exponent = exponent * 10 + (code - DIGIT_ZERO);
      code = text.charCodeAt(++position);
    }
    if (position === exponentStart) return Number(text.slice(start, end));
    if (negativeExponent) exponent = -exponent;
  }
  if (position !== end) return Number(text.slice(start, end));
  const power = exponent - fractionDigits;
  let magnitude: number;
  if (power >= 0 && power <= 22) magnitude = mantissa * EXACT_POWERS_OF_TEN[power];
  else if (power < 0 && power >= -22) magnitude = mantissa / EXACT_POWERS_OF_TEN[-power];
  else return Number(text.slice(start, end));
  return negative ? -magnitude : magnitude;
}
