import { InvalidArgumentError, type SeededRandom } from '@partonfit/core';
import {
  buildPoint,
  labelDefinitions,
  type SpaceNode,
  type SpacePoint,
  type SpaceValue,
} from './space.js';

/** numpy's `round`: to the nearest integer, halves to the even neighbour. */
export function roundHalfEven(value: number): number {
  const rounded = Math.round(value);
  // Math.round takes halves up; numpy takes them to the even integer.
  return rounded - value === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
}

/** round(value/q)·q as hyperopt's `quniform` quantises. */
export function quantize(value: number, q: number): number {
  return roundHalfEven(value / q) * q;
}

/** exp(logValue) kept inside [low, high] (exp(ln high) can round a bit above high). */
export function fromLog(logValue: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, Math.exp(logValue)));
}

/**
 * One draw from a node's prior, as hyperopt's `rand.suggest` draws it: a uniform index for a
 * choice, U(low, high), exp(U(ln low, ln high)) or round(U(low, high)/q)·q.
 */
export function priorDraw(node: SpaceNode, random: SeededRandom): number {
  switch (node.kind) {
    case 'choice':
      return Math.floor(random.uniform() * node.options.length);
    case 'uniform':
      return random.uniformBetween(node.low, node.high);
    case 'loguniform':
      return fromLog(
        random.uniformBetween(Math.log(node.low), Math.log(node.high)),
        node.low,
        node.high,
      );
    case 'quniform':
      return quantize(random.uniformBetween(node.low, node.high), node.q);
  }
}

/**
 * A random point of a search space (hyperopt's `rand.suggest`): each active label drawn from its
 * prior, walking the space from the root so that only the chosen options' labels are drawn and
 * present. Deterministic given the state of `random`.
 *
 * @throws InvalidArgumentError naming the label of an invalid node (see `validateSpace`)
 *
 * @example
 * ```ts
 * import { SeededRandom } from '@partonfit/core';
 * import { choice, evaluateSpace, logUniform, randomPoint } from '@partonfit/hyperopt';
 *
 * const space = {
 *   activation_per_layer: choice('activation_per_layer', ['tanh', 'sigmoid']),
 *   learning_rate: logUniform('learning_rate', 1e-4, 1e-2),
 * };
 * const point = randomPoint(space, new SeededRandom(42));
 * console.log(point); // { activation_per_layer: 1, learning_rate: 0.000167264558… }
 * console.log(evaluateSpace(space, point)); // { activation_per_layer: 'sigmoid', learning_rate: 0.000167264558… }
 * ```
 */
export function randomPoint(space: SpaceValue, random: SeededRandom): SpacePoint {
  labelDefinitions(space);
  return buildPoint(space, (node) => priorDraw(node, random));
}

/**
 * `count` independent random points (see {@link randomPoint}), drawn one after the other.
 *
 * @throws InvalidArgumentError for an invalid node or a `count` that is not a non-negative integer
 */
export function randomPoints(space: SpaceValue, count: number, random: SeededRandom): SpacePoint[] {
  nonNegativeInteger(count, 'count');
  labelDefinitions(space);
  return Array.from({ length: count }, () => buildPoint(space, (node) => priorDraw(node, random)));
}

/** `value` if it is an integer ≥ 0. */
export function nonNegativeInteger(value: number, argument: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected a non-negative integer, got ${value}`,
    });
  }
  return value;
}
