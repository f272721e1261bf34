import ndarray, { type NdArray } from 'ndarray';
import type { CommonData } from './commondata.js';

/** ndarray views of a dataset, for research code that works with ndarray/scijs. */
export interface CommonDataNdarrays {
  /** The central values, shape `(data)`, over `commonData.central` (not copied). */
  readonly central: NdArray<Float64Array>;
  /**
   * The kinematics, shape `(data, variable)` with the variables of
   * `commonData.kinematics.variables`, over `commonData.kinematics.values` (not copied).
   */
  readonly kinematics: NdArray<Float64Array>;
  /**
   * The systematics table: absolute uncertainties, shape `(data, uncertainty)` in the order of
   * `commonData.uncertainties` (a copy, row-major). MULT columns hold σ relative to the data.
   */
  readonly uncertainties: NdArray<Float64Array>;
}

/** ndarray views of a dataset's central values, kinematics and systematics table. */
export function commonDataAsNdarrays(commonData: CommonData): CommonDataNdarrays {
  const { ndata, uncertainties } = commonData;
  const columns = uncertainties.length;
  const table = new Float64Array(ndata * columns);
  uncertainties.forEach((uncertainty, k) => {
    uncertainty.values.forEach((value, i) => (table[i * columns + k] = value));
  });
  return {
    central: ndarray(commonData.central, [ndata]),
    kinematics: ndarray(commonData.kinematics.values, [ndata, 3]),
    uncertainties: ndarray(table, [ndata, columns]),
  };
}
