import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  POINT_PRESCRIPTION_NAMES,
  symmetricEigen,
  type PointPrescriptionName,
} from '@partonfit/core';
import { pointPrescription, scaleCombinationsOf, scaleLabel } from './point-prescriptions.js';
import { theoryCovariance, type DatasetScalePredictions } from './theory-covariance.js';

/** A deterministic pseudo-random number in [-1, 1). */
function noise(seed: number): number {
  const value = Math.sin(seed * 12.9898 + 78.233) * 43758.5453;
  return 2 * (value - Math.floor(value)) - 1;
}

/** A dataset of `size` points with generic predictions at all nine scale combinations. */
function dataset(name: string, process: string, size: number, seed: number) {
  const predictions = new Map<string, Float64Array>();
  scaleCombinationsOf(['9 point']).forEach((scales, v) => {
    predictions.set(
      scaleLabel(scales),
      Float64Array.from({ length: size }, (_, i) => 10 + i + noise(seed * 1000 + v * 50 + i)),
    );
  });
  return { name, process, predictions } satisfies DatasetScalePredictions;
}

/** Δ(k_F, k_R) of a dataset's point i. */
function shift(set: DatasetScalePredictions, kF: number, kR: number, i: number): number {
  const at = (label: string) => set.predictions.get(label)?.[i] ?? Number.NaN;
  return at(scaleLabel([kF, kR])) - at(scaleLabel([1, 1]));
}

const DIS_NC = dataset('NC_A', 'DIS NC', 6, 1);
const DIS_NC_OTHER = dataset('NC_B', 'DIS NC', 4, 2);
const DIS_CC = dataset('CC', 'DIS CC', 7, 3);
const DATASETS = [DIS_NC, DIS_CC, DIS_NC_OTHER];

/** Number of eigenvalues above 1e-10 of the largest. */
function rank(prescription: PointPrescriptionName, datasets: DatasetScalePredictions[]): number {
  const { values } = symmetricEigen(theoryCovariance([prescription], datasets));
  const largest = Math.max(...values.map(Math.abs));
  return values.filter((value) => value > 1e-10 * largest).length;
}

describe('theoryCovariance', () => {
  it('is validphys’s 7-point (Gavin) matrix, entry by entry, within and between processes', () => {
    const s = theoryCovariance(['7 point'], DATASETS);
    const n = 17;
    // point 2 of NC_A with point 1 of NC_B: the same process
    const [a, b] = [2, 13 + 1];
    const same =
      (1 / 3) *
      [
        [2, 1],
        [0.5, 1],
        [1, 2],
        [1, 0.5],
        [2, 2],
        [0.5, 0.5],
      ].reduce(
        (sum, [kF, kR]) => sum + shift(DIS_NC, kF, kR, 2) * shift(DIS_NC_OTHER, kF, kR, 1),
        0,
      );
    expect(s.data[a * n + b]).toBeCloseTo(same, 12);
    // point 0 of NC_A with point 3 of CC (data index 6 + 3): different processes
    const d1 = (kF: number, kR: number) => shift(DIS_NC, kF, kR, 0);
    const d2 = (kF: number, kR: number) => shift(DIS_CC, kF, kR, 3);
    const cross =
      (1 / 6) *
      (2 * (d1(2, 1) * d2(2, 1) + d1(0.5, 1) * d2(0.5, 1)) +
        (d1(1, 2) + d1(1, 0.5)) * (d2(1, 2) + d2(1, 0.5)) +
        (d1(2, 2) + d1(0.5, 0.5)) * (d2(2, 2) + d2(0.5, 0.5)));
    expect(s.data[0 * n + 9]).toBeCloseTo(cross, 12);
    expect(s.data[9 * n + 0]).toBe(s.data[0 * n + 9]);
  });

  it('is validphys’s 9-point and 5bar-point matrices between processes', () => {
    const d1 = (kF: number, kR: number) => shift(DIS_NC, kF, kR, 4);
    const d2 = (kF: number, kR: number) => shift(DIS_CC, kF, kR, 0);
    const nine =
      (1 / 12) *
        ((d1(2, 1) + d1(2, 2) + d1(2, 0.5)) * (d2(2, 1) + d2(2, 2) + d2(2, 0.5)) +
          (d1(0.5, 1) + d1(0.5, 0.5) + d1(0.5, 2)) * (d2(0.5, 1) + d2(0.5, 0.5) + d2(0.5, 2))) +
      (1 / 8) * (d1(1, 2) + d1(1, 0.5)) * (d2(1, 2) + d2(1, 0.5));
    expect(theoryCovariance(['9 point'], DATASETS).data[4 * 17 + 6]).toBeCloseTo(nine, 12);
    const fiveBar =
      (1 / 4) *
      ((d1(2, 2) + d1(2, 0.5)) * (d2(2, 2) + d2(2, 0.5)) +
        (d1(0.5, 2) + d1(0.5, 0.5)) * (d2(0.5, 2) + d2(0.5, 0.5)));
    expect(theoryCovariance(['5bar point'], DATASETS).data[4 * 17 + 6]).toBeCloseTo(fiveBar, 12);
  });

  it('is validphys’s 3, 3f, 3r and 5-point matrices between processes', () => {
    const d1 = (kF: number, kR: number) => shift(DIS_NC, kF, kR, 1);
    const d2 = (kF: number, kR: number) => shift(DIS_CC, kF, kR, 5);
    const entry = (name: PointPrescriptionName) =>
      theoryCovariance([name], DATASETS).data[1 * 17 + 6 + 5];
    expect(entry('3 point')).toBeCloseTo(
      (1 / 4) * (d1(2, 2) + d1(0.5, 0.5)) * (d2(2, 2) + d2(0.5, 0.5)),
      12,
    );
    expect(entry('3f point')).toBeCloseTo(
      (1 / 2) * (d1(2, 1) * d2(2, 1) + d1(0.5, 1) * d2(0.5, 1)),
      12,
    );
    expect(entry('3r point')).toBeCloseTo(
      (1 / 4) * (d1(1, 2) + d1(1, 0.5)) * (d2(1, 2) + d2(1, 0.5)),
      12,
    );
    expect(entry('5 point')).toBeCloseTo(
      (1 / 2) * (d1(2, 1) * d2(2, 1) + d1(0.5, 1) * d2(0.5, 1)) +
        (1 / 4) * (d1(1, 2) + d1(1, 0.5)) * (d2(1, 2) + d2(1, 0.5)),
      12,
    );
  });

  it('sums the matrices of several prescriptions', () => {
    const both = theoryCovariance(['9 point', '3 point'], DATASETS).data;
    const nine = theoryCovariance(['9 point'], DATASETS).data;
    const three = theoryCovariance(['3 point'], DATASETS).data;
    both.forEach((value, k) => {
      expect(value).toBeCloseTo(nine[k] + three[k], 12);
    });
  });

  it('has the rank of its independent scale parameters: symmetric, positive semi-definite', () => {
    // p processes: 3 point 1 + p, 3f 2, 3r 1 + p, 5 point 3 + p, 5bar 2 + 2p, 7 point 4 + 2p,
    // 9 point 3 + 5p (a correlated factorisation-scale direction per variation, a
    // renormalisation-scale one per process); one process: the number of variations.
    const twoProcesses: Record<PointPrescriptionName, number> = {
      '3 point': 3,
      '3f point': 2,
      '3r point': 3,
      '5 point': 5,
      '5bar point': 6,
      '7 point': 8,
      '9 point': 13,
    };
    const each = (value: (name: PointPrescriptionName) => number) =>
      Object.fromEntries(POINT_PRESCRIPTION_NAMES.map((name) => [name, value(name)]));
    expect(each((name) => rank(name, DATASETS))).toEqual(twoProcesses);
    expect(each((name) => rank(name, [DIS_NC, DIS_NC_OTHER]))).toEqual(
      each((name) => pointPrescription(name).scales.length - 1),
    );
    const lowest = each((name) => {
      const { values } = symmetricEigen(theoryCovariance([name], DATASETS));
      return Math.min(...values) / Math.max(...values);
    });
    for (const ratio of Object.values(lowest)) expect(ratio).toBeGreaterThan(-1e-12);
  });

  it('refuses predictions missing a scale the prescription needs, naming the dataset', () => {
    const partial = {
      ...DIS_CC,
      predictions: new Map([...DIS_CC.predictions].filter(([label]) => label !== '(0.5, 2)')),
    };
    expect(() => theoryCovariance(['9 point'], [DIS_NC, partial])).toThrow(InvalidArgumentError);
    expect(() => theoryCovariance(['9 point'], [DIS_NC, partial])).toThrow(
      /CC.*9 point prescription needs the scales \(0\.5, 2\)/,
    );
    expect(theoryCovariance(['7 point'], [DIS_NC, partial]).rows).toBe(13);
  });
});

describe('scaleCombinationsOf', () => {
  it('lists each combination once, central first, in the order of first appearance', () => {
    expect(scaleCombinationsOf(['3 point', '5 point']).map(scaleLabel)).toEqual([
      '(1, 1)',
      '(2, 2)',
      '(0.5, 0.5)',
      '(2, 1)',
      '(0.5, 1)',
      '(1, 2)',
      '(1, 0.5)',
    ]);
  });
});
