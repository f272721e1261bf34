import { InvalidArgumentError, type FkTensor, type ObservableTensors } from '@partonfit/core';
import type { DisFkTable, FkTable, HadronicFkTable } from './fk-table.js';
import { mergeMirroredChannels } from './mirrored-channels.js';
import { observableNdata, type Observable } from './observable.js';

/**
 * The FK tensor a training step multiplies (core's `DisFkTensor` / `HadronicFkTensor`), float32:
 * DIS `(x · channel, data)` with `values[(a · nc + c) · ndata + n] = FK[n, c, a]`;
 * hadronic `(x1 · x2 · channel, data)` with
 * `values[((a · nx + b) · nc + c) · ndata + n] = FK[n, c, a, b]`, its mirrored channel pairs
 * merged into one channel each ({@link mergeMirroredChannels}: `FK[n, c, a, b] + FK[n, c', b, a]`,
 * summed in float64 and rounded once), so `nc` counts the channels that stay.
 *
 * @param xOffset - position of the table's first x node in the PDF's x-grid (the concatenation
 *   of all tables' grids), so the step reads the table's nodes as a slice
 * @throws InvalidArgumentError - when `xOffset` is not a non-negative integer
 */
export function toFkTensor(fkTable: FkTable, xOffset: number): FkTensor {
  if (!Number.isInteger(xOffset) || xOffset < 0) {
    throw new InvalidArgumentError({
      argument: 'xOffset',
      problem: `expected a non-negative integer, got ${xOffset}`,
    });
  }
  const { name, ndata } = fkTable;
  const common = { name, ndata, nx: fkTable.xGrid.length, xOffset };
  return fkTable.hadronic
    ? { ...common, kind: 'hadronic', ...hadronicValues(fkTable) }
    : { ...common, kind: 'dis', channels: fkTable.channels, values: disValues(fkTable) };
}

/** Compact index (n · nc + c) · nx + a goes to (a · nc + c) · ndata + n. */
function disValues({ ndata, channels, xGrid, values: compact }: DisFkTable): Float32Array {
  const nx = xGrid.length;
  const nc = channels.length;
  const values = new Float32Array(compact.length);
  for (let n = 0; n < ndata; n++) {
    for (let c = 0; c < nc; c++) {
      const source = (n * nc + c) * nx;
      for (let a = 0; a < nx; a++) values[(a * nc + c) * ndata + n] = compact[source + a];
    }
  }
  return values;
}

/**
 * The merged channels' values: compact (n, c, a, b) of the channel that stays plus (n, m, b, a)
 * of its mirror m go to ((a · nx + b) · kept + k) · ndata + n.
 */
function hadronicValues({ ndata, channels, xGrid, values: compact }: HadronicFkTable) {
  const nx = xGrid.length;
  const nc = channels.length;
  const merged = mergeMirroredChannels(channels);
  const kept = merged.channels.length;
  const values = new Float32Array(ndata * kept * nx * nx);
  for (let n = 0; n < ndata; n++) {
    for (let k = 0; k < kept; k++) {
      const source = (n * nc + merged.sources[k]) * nx * nx;
      const mirror = merged.mirrors[k] < 0 ? -1 : (n * nc + merged.mirrors[k]) * nx * nx;
      for (let a = 0; a < nx; a++) {
        for (let b = 0; b < nx; b++) {
          const value = compact[source + a * nx + b];
          values[((a * nx + b) * kept + k) * ndata + n] =
            mirror < 0 ? value : value + compact[mirror + b * nx + a];
        }
      }
    }
  }
  return { channels: merged.channels, values };
}

/**
 * The step tensors of an observable: every table through {@link toFkTensor}, with its offset in
 * the PDF's x-grid from `xOffsetOf`.
 *
 * @param xOffsetOf - the x-grid offset of each table (e.g. from the union grid the PDF is
 *   evaluated on)
 */
export function toObservableTensors(
  observable: Observable,
  xOffsetOf: (fkTable: FkTable) => number,
): ObservableTensors {
  return {
    name: observable.name,
    ndata: observableNdata(observable),
    operation: observable.operation,
    operands: observable.operands.map((tables) =>
      tables.map((table) => toFkTensor(table, xOffsetOf(table))),
    ),
  };
}
