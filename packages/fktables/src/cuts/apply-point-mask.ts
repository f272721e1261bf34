import { ShapeError } from '@partonfit/core';
import type { CommonData, Uncertainty } from '../commondata/index.js';

/**
 * The dataset restricted to the points `mask` keeps: central values, kinematics, every
 * uncertainty (absolute and relative) and `pointIndices` are sliced alike; `ndata` is the number
 * kept.
 *
 * @param mask - (data) 1 = keep, 0 = drop, e.g. from {@link kinematicCutMask}
 * @throws ShapeError - if the mask's length is not the dataset's ndata
 */
export function applyPointMask(commonData: CommonData, mask: Uint8Array): CommonData {
  if (mask.length !== commonData.ndata) {
    throw new ShapeError({
      quantity: `point mask of ${commonData.name}`,
      expected: [commonData.ndata],
      actual: [mask.length],
      axes: '(data)',
    });
  }
  const kept: number[] = [];
  mask.forEach((keep, i) => {
    if (keep !== 0) kept.push(i);
  });
  const pick = (values: Float64Array) => Float64Array.from(kept, (i) => values[i]);
  const kinematics = new Float64Array(3 * kept.length);
  kept.forEach((i, n) => {
    kinematics.set(commonData.kinematics.values.subarray(3 * i, 3 * i + 3), 3 * n);
  });
  return {
    ...commonData,
    ndata: kept.length,
    central: pick(commonData.central),
    kinematics: { variables: commonData.kinematics.variables, values: kinematics },
    uncertainties: commonData.uncertainties.map((uncertainty): Uncertainty => {
      const { relative, ...rest } = uncertainty;
      return relative === undefined
        ? { ...rest, values: pick(uncertainty.values) }
        : { ...rest, values: pick(uncertainty.values), relative: pick(relative) };
    }),
    pointIndices: Uint32Array.from(kept, (i) => commonData.pointIndices[i]),
  };
}
