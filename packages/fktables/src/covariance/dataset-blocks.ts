import { isSpecialType, type CommonData, type Uncertainty } from '../commondata/index.js';
import type { DataBlock } from '../pseudodata/covariance-blocks.js';

/**
 * A contiguous stretch of the data axis (the datasets concatenated in order) whose covariance
 * is independent of the rest: no special systematic links it to another block.
 */
export interface DatasetBlock extends DataBlock {
  /** The indices (into the dataset list) of the datasets the block covers, ascending. */
  readonly datasets: readonly number[];
}

/** The first point of each dataset on the data axis, and the total: length datasets + 1. */
export function datasetOffsets(datasets: readonly CommonData[]): number[] {
  const offsets = [0];
  for (const dataset of datasets) offsets.push(offsets[offsets.length - 1] + dataset.ndata);
  return offsets;
}

/**
 * The key under which a special systematic correlates across datasets: its type and its
 * occurrence among the dataset's uncertainties of that type (the k-th `HC_sys1` of one dataset
 * meets the k-th `HC_sys1` of another).
 */
export function specialKeys(uncertainties: readonly Uncertainty[]): (string | undefined)[] {
  const seen = new Map<string, number>();
  return uncertainties.map(({ type }) => {
    if (!isSpecialType(type)) return undefined;
    const occurrence = seen.get(type) ?? 0;
    seen.set(type, occurrence + 1);
    return `${type}#${occurrence}`;
  });
}

/**
 * The independent blocks of the covariance of `datasets` concatenated in order: datasets that
 * share a special systematic with a non-zero value (e.g. HERA's `HC_sys…`, SLAC's `SLACNORM`)
 * are in one block, together with every dataset that lies between them on the data axis, so
 * blocks are contiguous. Datasets without points belong to no block.
 *
 * The covariance is zero outside the blocks, so χ², inverses and Cholesky factors can be taken
 * block by block (memory Σ size², time Σ size³).
 *
 * @returns the blocks in data order, together covering the data axis
 */
export function datasetBlocks(datasets: readonly CommonData[]): DatasetBlock[] {
  // Union-find over datasets, joined by shared special keys.
  const parent = datasets.map((_, d) => d);
  const root = (d: number): number => {
    while (parent[d] !== d) {
      parent[d] = parent[parent[d]];
      d = parent[d];
    }
    return d;
  };
  const owner = new Map<string, number>();
  datasets.forEach((dataset, d) => {
    const keys = specialKeys(dataset.uncertainties);
    dataset.uncertainties.forEach((uncertainty, k) => {
      const key = keys[k];
      if (key === undefined || !uncertainty.values.some((value) => value !== 0)) return;
      const first = owner.get(key);
      if (first === undefined) owner.set(key, d);
      else parent[root(d)] = root(first);
    });
  });
  // Each group spans from its first to its last dataset; overlapping spans merge.
  const last = new Map<number, number>();
  datasets.forEach((_, d) => last.set(root(d), d));
  const offsets = datasetOffsets(datasets);
  const blocks: DatasetBlock[] = [];
  let start = 0;
  let end = -1;
  datasets.forEach((_, d) => {
    end = Math.max(end, last.get(root(d)) ?? d);
    if (d < end) return;
    const members = Array.from({ length: d - start + 1 }, (_, i) => start + i).filter(
      (member) => datasets[member].ndata > 0,
    );
    if (members.length > 0) {
      blocks.push({
        offset: offsets[start],
        size: offsets[d + 1] - offsets[start],
        datasets: members,
      });
    }
    start = d + 1;
  });
  return blocks;
}
