import type * as tf from '@tensorflow/tfjs-core';
import { SeededRandom } from '@partonfit/core';
import { expect } from 'vitest';
import type { ReferenceSettings } from './keras-reference.fixture.js';

/** Every optimiser with its n3fit default learning rate, plus the momentum variants. */
export const OPTIMIZER_CASES: readonly ReferenceSettings[] = [
  { name: 'SGD', learningRate: 0.01, clipnorm: 1 },
  { name: 'SGD', learningRate: 0.01, clipnorm: 1, momentum: 0.9 },
  { name: 'SGD', learningRate: 0.01, clipnorm: 1, momentum: 0.9, nesterov: true },
  { name: 'RMSprop', learningRate: 0.01, clipnorm: 1 },
  { name: 'RMSprop', learningRate: 0.01, clipnorm: 1, momentum: 0.5, centered: true },
  { name: 'Adam', learningRate: 0.01, clipnorm: 1 },
  { name: 'Adamax', learningRate: 0.001, clipnorm: 1 },
  { name: 'Adagrad', learningRate: 0.001, clipnorm: 1 },
  { name: 'Adadelta', learningRate: 1, clipnorm: 1 },
  { name: 'Nadam', learningRate: 0.001, clipnorm: 1 },
  { name: 'Amsgrad', learningRate: 0.01, clipnorm: 1 },
];

/** A readable name for a case: the optimiser and its non-default options. */
export function caseLabel(settings: ReferenceSettings): string {
  const options = [
    settings.momentum === undefined ? '' : `momentum ${settings.momentum}`,
    settings.nesterov === true ? 'nesterov' : '',
    settings.centered === true ? 'centered' : '',
  ].filter((option) => option !== '');
  return options.length === 0 ? settings.name : `${settings.name} (${options.join(', ')})`;
}

/** Uniform draws in [low, high), float64, from a seeded generator. */
export function randomArray(size: number, seed: number, low = -1, high = 1): Float64Array {
  const random = new SeededRandom(seed);
  return Float64Array.from({ length: size }, () => random.uniformBetween(low, high));
}

/** The number of elements of a shape. */
export function sizeOf(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** The float64 values of a tensor. */
export function values(tensor: tf.Tensor): Float64Array {
  return Float64Array.from(tensor.dataSync());
}

/**
 * Asserts `|actual − expected| ≤ tolerance · max|expected|` element by element (NaN fails),
 * naming the first element that is off.
 */
export function expectClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  tolerance: number,
  what = 'values',
): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  let largest = 0;
  for (let i = 0; i < expected.length; i++) largest = Math.max(largest, Math.abs(expected[i]));
  for (let i = 0; i < expected.length; i++) {
    const error = Math.abs(actual[i] - expected[i]);
    if (!(error <= tolerance * largest)) {
      expect.fail(`${what}[${i}]: got ${actual[i]}, expected ${expected[i]}`);
    }
  }
}

/** The slice of replica `replica` of a replica-first array of `replicas` replicas. */
export function replicaSlice(array: Float64Array, replicas: number, replica: number): Float64Array {
  const per = array.length / replicas;
  return array.slice(replica * per, (replica + 1) * per);
}

/**
 * The largest `|actual − expected|` relative to the largest `|expected|`; NaN if any value is
 * NaN, Infinity for a length mismatch.
 */
export function relativeDeviation(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  if (actual.length !== expected.length) return Number.POSITIVE_INFINITY;
  let largest = 0;
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    largest = Math.max(largest, Math.abs(expected[i]));
    const error = Math.abs(actual[i] - expected[i]);
    if (Number.isNaN(error)) return Number.NaN;
    worst = Math.max(worst, error);
  }
  return worst === 0 ? 0 : worst / largest;
}

/** {@link relativeDeviation}s of many comparisons, each with where it happened. */
export class Deviations {
  private readonly found: { readonly where: string; readonly deviation: number }[] = [];

  compare(actual: ArrayLike<number>, expected: ArrayLike<number>, where: string): void {
    this.found.push({ where, deviation: relativeDeviation(actual, expected) });
  }

  /** The comparisons whose deviation exceeds `tolerance` (or is NaN), described. */
  beyond(tolerance: number): string[] {
    return this.found
      .filter(({ deviation }) => !(deviation <= tolerance))
      .map(({ where, deviation }) => `${where}: relative deviation ${deviation}`);
  }
}
