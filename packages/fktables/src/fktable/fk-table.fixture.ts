import { SeededRandom } from '@partonfit/core';
import type { DisFkTable, HadronicFkTable } from './fk-table.js';

/** A DIS table in memory with the given compact values `(data, channel, x)`. */
export function disTable(options: {
  name?: string;
  ndata: number;
  xGrid: readonly number[];
  channels: readonly number[];
  values: readonly number[];
}): DisFkTable {
  return {
    name: options.name ?? 'DIS',
    file: `${options.name ?? 'DIS'}.dat`,
    hadronic: false,
    q0: 1.65,
    ndata: options.ndata,
    xGrid: Float64Array.from(options.xGrid),
    channels: options.channels,
    values: Float64Array.from(options.values),
    cFactors: [],
  };
}

/** A hadronic table in memory with the given compact values `(data, channel, x1, x2)`. */
export function hadronicTable(options: {
  name?: string;
  ndata: number;
  xGrid: readonly number[];
  channels: readonly (readonly [number, number])[];
  values: readonly number[];
}): HadronicFkTable {
  return {
    name: options.name ?? 'HADRONIC',
    file: `${options.name ?? 'HADRONIC'}.dat`,
    hadronic: true,
    q0: 1.65,
    ndata: options.ndata,
    xGrid: Float64Array.from(options.xGrid),
    channels: options.channels,
    values: Float64Array.from(options.values),
    cFactors: [],
  };
}

/** `count` uniform numbers in [−1, 1) from `seed`. */
export function randomValues(count: number, seed: number): number[] {
  const random = new SeededRandom(seed);
  return Array.from({ length: count }, () => random.uniformBetween(-1, 1));
}

/** A seeded random x·f, shape `(x, 14)`. */
export function randomXf(nx: number, seed: number): Float64Array {
  return Float64Array.from(randomValues(nx * 14, seed));
}
