import { gaussLegendre, type QuadratureRule } from '@partonfit/core';

const rules = new Map<number, QuadratureRule>();

/** The n-point Gauss–Legendre rule on [−1, 1] (core's `gaussLegendre`), cached per n. */
export function unitGaussLegendre(n: number): QuadratureRule {
  const cached = rules.get(n);
  if (cached !== undefined) return cached;
  const rule = gaussLegendre(n, -1, 1);
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
  const { nodes, weights } = unitGaussLegendre(n);
  const half = (b - a) / 2;
  const middle = (a + b) / 2;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += weights[i] * f(middle + half * nodes[i]);
  return sum * half;
}
