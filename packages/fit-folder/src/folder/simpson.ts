import { InvalidArgumentError } from '@partonfit/core';

/**
 * ∫ y dx from samples by the composite Simpson rule, as `scipy.integrate.simpson(y, x=x)` does it
 * (SciPy ≥ 1.11: the `even="simpson"` rule, the only one since 1.13), which validphys's arc
 * length uses:
 *
 * - each pair of intervals (h0, h1) contributes
 *   (h0+h1)/6 · [y0·(2 − h1/h0) + y1·(h0+h1)²/(h0·h1) + y2·(2 − h0/h1)]
 *   (the parabola through the three points);
 * - with an odd number of samples the pairs cover every interval;
 * - with an even number the pairs cover all but the last interval, which adds
 *   α·y[−1] + β·y[−2] − η·y[−3] with α = (2h1² + 3h0h1)/(6(h0+h1)),
 *   β = (h1² + 3h0h1)/(6h0), η = h1³/(6h0(h0+h1)) (Cartwright's correction;
 *   (5, 8, −1)·h/12 for equal spacing);
 * - two samples give the trapezoid.
 *
 * Exact for quadratics, and for cubics with an odd number of equally spaced samples.
 *
 * @param y - the samples (points)
 * @param x - the sample positions (points), increasing
 * @throws InvalidArgumentError for fewer than two samples or lengths that differ
 */
export function simpsonIntegral(y: ArrayLike<number>, x: ArrayLike<number>): number {
  const points = y.length;
  if (points < 2 || x.length !== points) {
    throw new InvalidArgumentError({
      argument: 'y, x',
      problem: `expected at least two samples and as many positions, got ${points} and ${x.length}`,
    });
  }
  if (points === 2) return ((x[1] - x[0]) * (y[0] + y[1])) / 2;
  // pairs of intervals over samples 0 … last, where last is the final sample (odd count) or the
  // one before it (even count)
  const last = points % 2 === 1 ? points - 1 : points - 2;
  let sum = 0;
  for (let start = 0; start + 2 <= last; start += 2) {
    const h0 = x[start + 1] - x[start];
    const h1 = x[start + 2] - x[start + 1];
    const hSum = h0 + h1;
    sum +=
      (hSum / 6) *
      (y[start] * (2 - h1 / h0) +
        y[start + 1] * ((hSum * hSum) / (h0 * h1)) +
        y[start + 2] * (2 - h0 / h1));
  }
  if (last === points - 1) return sum;
  const h0 = x[points - 2] - x[points - 3];
  const h1 = x[points - 1] - x[points - 2];
  const alpha = (2 * h1 * h1 + 3 * h0 * h1) / (6 * (h0 + h1));
  const beta = (h1 * h1 + 3 * h0 * h1) / (6 * h0);
  const eta = (h1 * h1 * h1) / (6 * h0 * (h0 + h1));
  return sum + alpha * y[points - 1] + beta * y[points - 2] - eta * y[points - 3];
}
