/**
 * `value` as C's `printf("%.<fractionDigits>e")` writes it: one digit, the point, `fractionDigits`
 * digits, the exponent symbol and a signed exponent of at least two digits (`-1.6904794e-01`,
 * `1.0000000e-100`). Like glibc, it rounds the exact binary value to nearest with ties to even
 * (`1.00390625` → `1.0039062e+00`), where JavaScript's `toExponential` rounds ties up, and keeps
 * the sign of −0.
 *
 * @param value - a finite number
 * @param fractionDigits - digits after the point, 0 to 99 (no point when 0, as in C)
 * @param symbol - `e` or `E`
 */
export function formatExponential(
  value: number,
  fractionDigits: number,
  symbol: 'e' | 'E',
): string {
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const rounded = roundedHalfEven(Math.abs(value), fractionDigits);
  const split = rounded.indexOf('e');
  const exponent = Number(rounded.slice(split + 1));
  const exponentDigits = String(Math.abs(exponent)).padStart(2, '0');
  return `${sign}${rounded.slice(0, split)}${symbol}${exponent < 0 ? '-' : '+'}${exponentDigits}`;
}

/** `toExponential` of a non-negative number, with exact ties rounded to the even digit. */
function roundedHalfEven(magnitude: number, fractionDigits: number): string {
  const rounded = magnitude.toExponential(fractionDigits);
  const last = rounded.indexOf('e') - 1;
  const lastDigit = Number(rounded[last]);
  // toExponential rounds a tie up; that is the even choice unless the digit it gave is odd.
  if (lastDigit % 2 === 0 || !isTie(magnitude, fractionDigits)) return rounded;
  return `${rounded.slice(0, last)}${lastDigit - 1}${rounded.slice(last + 1)}`;
}

/** Whether `magnitude` lies exactly halfway between two numbers of `fractionDigits` digits. */
function isTie(magnitude: number, fractionDigits: number): boolean {
  const longer = magnitude.toExponential(fractionDigits + 1);
  const split = longer.indexOf('e');
  if (longer[split - 1] !== '5') return false;
  const decimalDigits = BigInt(longer.slice(0, split).replace('.', ''));
  const decimalExponent = Number(longer.slice(split + 1)) - (fractionDigits + 1);
  return equalsExactly(magnitude, decimalDigits, decimalExponent);
}

/** Whether the double `magnitude` equals digits · 10^exponent exactly. */
function equalsExactly(magnitude: number, digits: bigint, exponent: number): boolean {
  let scaled = magnitude;
  let binaryExponent = 0;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    binaryExponent--;
  }
  // magnitude = scaled · 2^binaryExponent with binaryExponent ≤ 0; compare as integers.
  const ten = 10n;
  const left = BigInt(scaled) * (exponent < 0 ? ten ** BigInt(-exponent) : 1n);
  const right = (digits << BigInt(-binaryExponent)) * (exponent > 0 ? ten ** BigInt(exponent) : 1n);
  return left === right;
}
