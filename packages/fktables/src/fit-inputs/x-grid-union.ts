import type { FkTable } from '../fktable/fk-table.js';

/** The x points the PDF is evaluated on each step, and where each table reads them. */
export interface XGridUnion {
  /** The distinct x-grids of all tables, concatenated in order of first use, (x). */
  readonly xGrid: Float64Array;
  /** The first position of each distinct grid in `xGrid`, by the grid's position in `grids`. */
  readonly offsets: readonly number[];
  /** For every table given, the offset of its grid in `xGrid`. */
  readonly tableOffsets: ReadonlyMap<FkTable, number>;
}

function sameGrid(left: Float64Array, right: Float64Array): boolean {
  return left.length === right.length && left.every((x, i) => x === right[i]);
}

/**
 * The x-grid on which the PDF is evaluated once per step: identical grids (real theories share
 * one grid across most tables) appear once, distinct ones are concatenated, so each table reads
 * its nodes as one contiguous slice `[offset, offset + nx)` — a slice, never a gather.
 *
 * @param tables - every FK table of the fit (data, positivity and integrability)
 */
export function xGridUnion(tables: readonly FkTable[]): XGridUnion {
  const grids: Float64Array[] = [];
  const offsets: number[] = [];
  const tableOffsets = new Map<FkTable, number>();
  let length = 0;
  for (const table of tables) {
    let index = grids.findIndex((grid) => sameGrid(grid, table.xGrid));
    if (index < 0) {
      index = grids.length;
      grids.push(table.xGrid);
      offsets.push(length);
      length += table.xGrid.length;
    }
    tableOffsets.set(table, offsets[index]);
  }
  const xGrid = new Float64Array(length);
  grids.forEach((grid, i) => {
    xGrid.set(grid, offsets[i]);
  });
  return { xGrid, offsets, tableOffsets };
}
