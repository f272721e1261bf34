import type { FitDataset } from '@partonfit/fktables';
import { fkSize } from '@partonfit/layers';

/**
 * FLOPs of the FK contractions of the tables of one kind, forward and backward to the PDF:
 * `2 · R · |FK|` each way (every FK value multiplies every replica's PDF, or luminosity, once;
 * the backward multiplies the upstream gradient by the table once). The one-hot flavour
 * selections and the luminosity's outer product are not counted: they are the overhead.
 */
export function observableFlops(
  datasets: readonly FitDataset[],
  kind: 'dis' | 'hadronic',
  replicas: number,
): number {
  const values = datasets
    .flatMap((dataset) => dataset.observable.operands.flat())
    .filter((table) => table.kind === kind)
    .reduce((sum, table) => sum + fkSize(table), 0);
  return 4 * replicas * values;
}

/**
 * FLOPs of the PDF network's dense layers, forward and backward: `2 · R · points · in · out` per
 * layer forward, the same for the weight gradient, and again for the gradient to the layer's
 * input except at the first layer, whose input (the x features) is a constant.
 *
 * @param inputWidth - the features per point (2: x and log x)
 * @param units - the layers' widths, e.g. `[25, 20, 8]`
 */
export function networkFlops(
  inputWidth: number,
  units: readonly number[],
  points: number,
  replicas: number,
): number {
  let flops = 0;
  units.forEach((width, layer) => {
    const product = 2 * replicas * points * (layer === 0 ? inputWidth : units[layer - 1]) * width;
    flops += (layer === 0 ? 2 : 3) * product;
  });
  return flops;
}
