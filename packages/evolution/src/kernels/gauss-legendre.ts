/** Nodes and weights of an n-point Gauss–Legendre rule on [−1, 1]. */
export interface GaussLegendreRule {
  readonly nodes: Float64Array;
  readonly weights: Float64Array;
}

const rules = new Map<number, GaussLegendreRule>();

/**
 * The n-point Gauss–Legendre rule on [−1, 1], by Newton's iteration on the Legendre polynomial
 * (exact for polynomials of degree 2n − 1), cached per n.
 *
 * @param n - the number of points (≥ 1)
 */
export function gaussLegendre(n: number): GaussLegendreRule {
  const cached = rules.get(n);
  if (cached !== undefined) return cached;
  const nodes = new Float64Array(n);
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let x = Math.cos((Math.PI * (i + 0.75)) / (n + 0.5));
    let derivative = 1;
    for (let iteration = 0; iteration < 100; iteration++) {
      let p0 = 1;
      let p1 = x;
      for (let k = 2; k <= n; k++) {
        const p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      if (n === 1) p0 = 1;
      derivative = (n * (x * p1 - p0)) / (x * x - 1);
      const step = p1 / derivative;
      x -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    nodes[i] = x;
    weights[i] = 2 / ((1 - x * x) * derivative * derivative);
  }
  const rule = { nodes, weights };
  rules.set(n, rule);
  return rule;
}

/**
 * ∫_a^b f(t) dt by an n-point Gauss–Legendre rule.
 *
 * @param f - the integrand
 * @param a - lower limit
 * @param b - upper limit
 * @param n - points (default 32)
 */
export function integrate(f: (t: number) => number, a: number, b: number, n = 32): number {
  const { nodes, weights } = gaussLegendre(n);
  const half = (b - a) / 2;
  const middle = (a + b) / 2;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += weights[i] * f(middle + half * nodes[i]);
  return sum * half;
}
