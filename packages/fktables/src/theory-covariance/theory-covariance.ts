import {
  createMatrix,
  InvalidArgumentError,
  ShapeError,
  type Matrix,
  type PointPrescriptionName,
} from '@partonfit/core';
import { pointPrescription, scaleLabel, type PointPrescription } from './point-prescriptions.js';

/** One dataset's theory predictions at the scale combinations of a theory covariance. */
export interface DatasetScalePredictions {
  /** The dataset's name, for messages. */
  readonly name: string;
  /**
   * The process the dataset belongs to (validphys's `nnpdf31_process`, e.g. `DIS NC`): shifts
   * of one process are fully correlated, those of different processes as the prescription says.
   */
  readonly process: string;
  /**
   * The predictions at each scale combination, keyed by {@link scaleLabel}, `(data)` each; every
   * combination of the prescriptions must be there.
   */
  readonly predictions: ReadonlyMap<string, Float64Array>;
}

/** The shifts Δ_v = T(v) − T(1, 1) of every point, `(varied, data)`, and each point's process. */
interface PointShifts {
  readonly shifts: Float64Array[];
  readonly process: Int32Array;
}

function pointShifts(
  prescription: PointPrescription,
  datasets: readonly DatasetScalePredictions[],
  ndata: number,
): PointShifts {
  const [central, ...varied] = prescription.scales.map(scaleLabel);
  const shifts = varied.map(() => new Float64Array(ndata));
  const process = new Int32Array(ndata);
  const processes = [...new Set(datasets.map((dataset) => dataset.process))];
  let offset = 0;
  for (const dataset of datasets) {
    const at = (label: string): Float64Array => {
      const values = dataset.predictions.get(label);
      if (values === undefined) {
        throw new InvalidArgumentError({
          argument: `predictions of ${dataset.name}`,
          problem: `the ${prescription.name} prescription needs the scales ${label}, which are missing`,
        });
      }
      const bad = values.findIndex((value) => !Number.isFinite(value));
      if (bad >= 0) {
        throw new InvalidArgumentError({
          argument: `predictions of ${dataset.name} at ${label}`,
          problem: `point ${bad} is ${values[bad]}`,
        });
      }
      return values;
    };
    const centralValues = at(central);
    const size = centralValues.length;
    varied.forEach((label, v) => {
      const values = at(label);
      if (values.length !== size) {
        throw new ShapeError({
          quantity: `predictions of ${dataset.name} at ${label}`,
          expected: [size],
          actual: [values.length],
          axes: '(data)',
        });
      }
      for (let i = 0; i < size; i++) shifts[v][offset + i] = values[i] - centralValues[i];
    });
    process.fill(processes.indexOf(dataset.process), offset, offset + size);
    offset += size;
  }
  return { shifts, process };
}

/** Adds one prescription's S to the (n, n) `covariance`. */
function addPrescription(
  covariance: Float64Array,
  n: number,
  prescription: PointPrescription,
  { shifts, process }: PointShifts,
): void {
  const grouped = prescription.crossProcessTerms.map(({ shifts: members }) => {
    const sum = new Float64Array(n);
    for (const v of members) for (let i = 0; i < n; i++) sum[i] += shifts[v][i];
    return sum;
  });
  const weights = prescription.crossProcessTerms.map(({ weight }) => weight);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let value = 0;
      if (process[i] === process[j]) {
        for (const shift of shifts) value += shift[i] * shift[j];
        value *= prescription.sameProcessWeight;
      } else {
        grouped.forEach((sum, t) => (value += weights[t] * sum[i] * sum[j]));
      }
      covariance[i * n + j] += value;
      if (j !== i) covariance[j * n + i] += value;
    }
  }
}

/**
 * The theory covariance of scale variations, summed over `prescriptions` (validphys's
 * `theory_covmat_custom`), on the data axis of `datasets` concatenated in order. Each
 * prescription's S takes the shifts Δ_v = T(v) − T(1, 1) of its combinations and correlates them
 * fully within a process and as {@link PointPrescription} says between processes.
 *
 * @returns (data, data), symmetric, positive semi-definite, float64
 * @throws InvalidArgumentError - naming the dataset, for missing scales or non-finite predictions
 * @throws ShapeError - for predictions of different lengths within a dataset
 */
export function theoryCovariance(
  prescriptions: readonly PointPrescriptionName[],
  datasets: readonly DatasetScalePredictions[],
): Matrix {
  const central = scaleLabel([1, 1]);
  const ndata = datasets.reduce(
    (total, dataset) => total + (dataset.predictions.get(central)?.length ?? 0),
    0,
  );
  const covariance = createMatrix(ndata, ndata);
  for (const name of prescriptions) {
    const prescription = pointPrescription(name);
    addPrescription(
      covariance.data,
      ndata,
      prescription,
      pointShifts(prescription, datasets, ndata),
    );
  }
  return covariance;
}
