/** ζ(2) = π²/6. */
export const ZETA2 = (Math.PI * Math.PI) / 6;
/** ζ(3). */
export const ZETA3 = 1.2020569031595942;

/** Terms of the series in u = −ln(1 − y): for |u| ≤ ln 2 the last is below 10⁻²⁵ of the first. */
const SERIES_TERMS = 26;

/** The Bernoulli numbers B_0 … B_(SERIES_TERMS − 1), with B_1 = −½. */
const BERNOULLI = (() => {
  const numbers = [1];
  for (let m = 1; m < SERIES_TERMS; m++) {
    let sum = 0;
    let binomial = 1;
    for (let k = 0; k < m; k++) {
      sum += binomial * numbers[k];
      binomial = (binomial * (m + 1 - k)) / (k + 1);
    }
    numbers.push(-sum / (m + 1));
  }
  return numbers;
})();

const FACTORIAL = BERNOULLI.map((_, n) => {
  let value = 1;
  for (let k = 2; k <= n; k++) value *= k;
  return value;
});

/** Σ_k coefficients[k]·u^(k + offset), by Horner's rule. */
function powerSeries(coefficients: readonly number[], u: number, offset: number): number {
  let sum = 0;
  for (let k = coefficients.length - 1; k >= 0; k--) sum = sum * u + coefficients[k];
  return sum * u ** offset;
}

/**
 * ∫_0^u s^p/(e^s − 1) ds = Σ_n B_n u^(n+p)/(n!·(n + p)): coefficients of u^(n+p), for p = 1, 2.
 * With u = −ln(1 − y) these are Li2(y) (p = 1) and 2·S_{1,2}(y) (p = 2).
 */
const BOSE_SERIES = [1, 2].map((power) =>
  BERNOULLI.map((b, n) => b / (FACTORIAL[n] * (n + power))),
);

/**
 * Li3(y) = Σ_(n,m) B_n B_m u^(n+m+1)/((n + 1)·n!·m!·(n + m + 1)), u = −ln(1 − y): from
 * dLi3/du = Li2(y)/(e^u − 1). Coefficients of u^(k+1).
 */
const TRILOGARITHM_SERIES = (() => {
  const coefficients = new Array<number>(SERIES_TERMS).fill(0);
  for (let n = 0; n < SERIES_TERMS; n++) {
    for (let m = 0; n + m < SERIES_TERMS; m++) {
      coefficients[n + m] +=
        (BERNOULLI[n] * BERNOULLI[m]) / ((n + 1) * FACTORIAL[n] * FACTORIAL[m] * (n + m + 1));
    }
  }
  return coefficients;
})();

/** u = −ln(1 − y), the variable of the series, for −1 ≤ y ≤ ½ (|u| ≤ ln 2). */
function seriesVariable(y: number): number {
  return -Math.log1p(-y);
}

/** Li2(y) for −1 ≤ y ≤ ½. */
function dilogarithmSeries(y: number): number {
  return powerSeries(BOSE_SERIES[0], seriesVariable(y), 1);
}

/** Li3(y) for −1 ≤ y ≤ ½. */
function trilogarithmSeries(y: number): number {
  return powerSeries(TRILOGARITHM_SERIES, seriesVariable(y), 1);
}

/**
 * The dilogarithm Li2(y) = −∫_0^y ln(1 − t)/t dt for 0 ≤ y ≤ 1: the Bernoulli series in
 * u = −ln(1 − y) up to ½, Euler's reflection Li2(y) = ζ2 − ln y ln(1 − y) − Li2(1 − y) above.
 */
export function dilogarithm(y: number): number {
  if (y === 1) return ZETA2;
  if (y <= 0.5) return dilogarithmSeries(y);
  return ZETA2 - Math.log(y) * Math.log1p(-y) - dilogarithmSeries(1 - y);
}

/**
 * The trilogarithm Li3(y) = Σ y^k/k³ for −1 ≤ y ≤ 1: the Bernoulli series in u = −ln(1 − y) up
 * to ½; above, Li3(y) = ζ3 + ln³y/6 + ζ2 ln y − ½ ln²y ln(1 − y) − Li3(1 − y) − Li3(1 − 1/y),
 * whose arguments lie in [−1, ½].
 */
export function trilogarithm(y: number): number {
  if (y === 1) return ZETA3;
  if (y <= 0.5) return trilogarithmSeries(y);
  const lnY = Math.log(y);
  return (
    ZETA3 +
    (lnY * lnY * lnY) / 6 +
    ZETA2 * lnY -
    0.5 * lnY * lnY * Math.log1p(-y) -
    trilogarithmSeries(1 - y) -
    trilogarithmSeries(1 - 1 / y)
  );
}

/**
 * Nielsen's S_{1,2}(y) = ½∫_0^y ln²(1 − t)/t dt for −1 ≤ y ≤ 1: the Bernoulli series in
 * u = −ln(1 − y) up to ½; above, S_{1,2}(y) = ζ3 − Li3(1 − y) + ln(1 − y) Li2(1 − y)
 * + ½ ln y ln²(1 − y).
 */
export function nielsenS12(y: number): number {
  if (y === 1) return ZETA3;
  if (y <= 0.5) return 0.5 * powerSeries(BOSE_SERIES[1], seriesVariable(y), 2);
  const lnOneMinusY = Math.log1p(-y);
  return (
    ZETA3 -
    trilogarithmSeries(1 - y) +
    lnOneMinusY * dilogarithmSeries(1 - y) +
    0.5 * Math.log(y) * lnOneMinusY * lnOneMinusY
  );
}

/** Nielsen's S_{1,2}(−x) for 0 ≤ x ≤ 1. */
export function nielsenS12OfMinus(x: number): number {
  return nielsenS12(-x);
}

/** Li2(−x) for 0 ≤ x ≤ 1. */
export function dilogarithmOfMinus(x: number): number {
  return dilogarithmSeries(-x);
}

/**
 * S2(x) = ∫_{x/(1+x)}^{1/(1+x)} dz/z ln((1 − z)/z)
 *       = −2 Li2(−x) + ½ ln²x − 2 ln x ln(1 + x) − π²/6,
 * the function of the NLO splitting functions' x → −x pieces (Ellis, Stirling, Webber).
 */
export function s2Function(x: number): number {
  const lnx = Math.log(x);
  return -2 * dilogarithmOfMinus(x) + 0.5 * lnx * lnx - 2 * lnx * Math.log1p(x) - ZETA2;
}
