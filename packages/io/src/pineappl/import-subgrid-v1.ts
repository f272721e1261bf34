import { UnsupportedInputError } from '@partonfit/core';
import type { BincodeReader } from './bincode-reader.js';
import { forEachPackedEntry, type PackedArray } from './packed-array.js';
import type { PineapplMu2, PineapplSubgrid } from './pineappl-grid.js';
import { scaleOf, type PineapplScales } from './scale-func-form.js';

/**
 * PineAPPL 1.x's `ImportSubgridV1` brought into the layout of file version 0: its kinematic
 * dimensions (the grid's `Kinematics`, in any order) become `(mu2, x1, x2)`, its scale nodes
 * the renormalisation and factorisation scales the grid's scale forms give.
 *
 * @packageDocumentation
 */

/** A kinematic dimension of a subgrid: a scale (`Scale(i)`) or the x of convolution i (`X(i)`). */
export interface Kinematic {
  readonly kind: 'Scale' | 'X';
  readonly index: number;
}

/** An `ImportSubgridV1` as stored: values in the order of the grid's kinematics. */
export interface StoredImportSubgrid {
  readonly key: string;
  readonly array: PackedArray;
  readonly nodeValues: readonly Float64Array[];
}

/** The grid-level facts an imported subgrid is turned into `(mu2, x1, x2)` with. */
export interface Layout {
  readonly file: string;
  readonly kinematics: readonly Kinematic[];
  readonly scales: PineapplScales;
  /** The position in `kinematics` of `X(0)` and, for two convolutions, `X(1)`. */
  readonly xAxes: readonly number[];
  /** The positions in `kinematics` of the scales, in order. */
  readonly scaleAxes: readonly number[];
}

/**
 * The layout of a grid's imported subgrids: where `X(0)`, `X(1)` and the scales are among its
 * kinematics.
 *
 * @throws UnsupportedInputError - naming the file, for other than one or two convolutions
 * @throws InputFileError - for kinematics without an `X(i)` of each convolution, or with a
 *   repeated or extra one
 */
export function layoutOf(
  reader: BincodeReader,
  file: string,
  kinematics: readonly Kinematic[],
  scales: PineapplScales,
  convolutions: number,
): Layout {
  if (convolutions < 1 || convolutions > 2) {
    throw new UnsupportedInputError({
      file,
      key: 'convolutions',
      feature: `a PineAPPL grid with ${convolutions} convolutions`,
      problem: 'partonfit reads grids with one (DIS) or two (hadronic) convolutions',
    });
  }
  const xAxes = new Array<number>(convolutions).fill(-1);
  const scaleAxes: number[] = [];
  kinematics.forEach(({ kind, index }, axis) => {
    if (kind === 'Scale') {
      scaleAxes.push(axis);
      return;
    }
    if (index >= convolutions || xAxes[index] !== -1) {
      throw reader.error('kinematics', `X(${index}) in a grid with ${convolutions} convolutions`);
    }
    xAxes[index] = axis;
  });
  for (let convolution = 0; convolution < convolutions; convolution++) {
    if (xAxes[convolution] === -1) {
      throw reader.error('kinematics', `no X(${convolution}) for convolution ${convolution}`);
    }
  }
  return { file, kinematics, scales, xAxes, scaleAxes };
}

/** The scale nodes of a subgrid: every combination of its scale-type node values, row-major. */
function mu2Grid(
  reader: BincodeReader,
  layout: Layout,
  subgrid: StoredImportSubgrid,
): PineapplMu2[] {
  const { kinematics, scaleAxes, scales } = layout;
  const counts = scaleAxes.map((axis) => subgrid.nodeValues[axis].length);
  const total = counts.reduce((product, count) => product * count, 1);
  const grid: PineapplMu2[] = [];
  for (let combination = 0; combination < total; combination++) {
    const values = new Map<number, number>();
    let rest = combination;
    for (let k = scaleAxes.length - 1; k >= 0; k--) {
      const axis = scaleAxes[k];
      values.set(kinematics[axis].index, subgrid.nodeValues[axis][rest % counts[k]]);
      rest = Math.floor(rest / counts[k]);
    }
    const ren = scaleOf(scales.ren, values);
    const fac = scaleOf(scales.fac, values);
    for (const scale of [ren, fac]) {
      if (scale !== undefined && !Number.isFinite(scale)) {
        throw reader.error(subgrid.key, `the scale nodes give the scale² ${scale}`);
      }
    }
    grid.push({ ren, fac });
  }
  return grid;
}

/**
 * An `ImportSubgridV1` with its dimensions in the order `(mu2, x1, x2)`; a grid with one
 * convolution gets the single node x2 = 1.
 *
 * @throws InputFileError - for node values that do not match the kinematics, or scale nodes that
 *   give a scale that is not finite
 */
export function importSubgrid(
  reader: BincodeReader,
  layout: Layout,
  subgrid: StoredImportSubgrid,
): PineapplSubgrid {
  const { kinematics, xAxes, scaleAxes } = layout;
  if (subgrid.nodeValues.length !== kinematics.length) {
    throw reader.error(
      subgrid.key,
      `${subgrid.nodeValues.length} node-value dimensions, the grid has ${kinematics.length} kinematics`,
    );
  }
  const mu2 = mu2Grid(reader, layout, subgrid);
  const x1Grid = subgrid.nodeValues[xAxes[0]];
  const x2Grid = xAxes.length === 2 ? subgrid.nodeValues[xAxes[1]] : Float64Array.of(1);
  const shape = [mu2.length, x1Grid.length, x2Grid.length];
  const order = [...scaleAxes, ...xAxes];
  const ordered = order.every((axis, position) => axis === position);
  const array = ordered
    ? { ...subgrid.array, shape }
    : reorder(subgrid.array, order, scaleAxes.length, shape);
  return { type: 'ImportSubgridV1', array, mu2Grid: mu2, x1Grid, x2Grid };
}

/** The array with its axes taken in `order` (scale axes first, combined into one). */
function reorder(
  array: PackedArray,
  order: readonly number[],
  scaleCount: number,
  shape: readonly number[],
): PackedArray {
  const flat: [number, number][] = [];
  forEachPackedEntry(array, (index, value) => {
    let scale = 0;
    for (let k = 0; k < scaleCount; k++) scale = scale * array.shape[order[k]] + index[order[k]];
    const i1 = index[order[scaleCount]];
    const i2 = order.length > scaleCount + 1 ? index[order[scaleCount + 1]] : 0;
    flat.push([(scale * shape[1] + i1) * shape[2] + i2, value]);
  });
  flat.sort((a, b) => a[0] - b[0]);
  const startIndices: number[] = [];
  const lengths: number[] = [];
  for (const [index] of flat) {
    const last = startIndices.length - 1;
    if (last >= 0 && startIndices[last] + lengths[last] === index) {
      lengths[last]++;
    } else {
      startIndices.push(index);
      lengths.push(1);
    }
  }
  return {
    entries: Float64Array.from(flat, ([, value]) => value),
    startIndices: Float64Array.from(startIndices),
    lengths: Float64Array.from(lengths),
    shape,
  };
}
