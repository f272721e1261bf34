import type { SeededRandom } from '@partonfit/core';
import { shuffledIndices, type DisFkTable, type HadronicFkTable } from '@partonfit/fktables';
import type { HadronicKinematics } from './workload-spec.js';

/** The file name synthetic tables report, for messages. */
export const SYNTHETIC_FILE = '<synthetic>';

/** Q0 of the synthetic tables (NNPDF4.0's 1.65 GeV); no evolution happens in a benchmark. */
export const SYNTHETIC_Q0 = 1.65;

/**
 * `count` distinct luminosity channels `[first, second]` drawn from `pool × pool`, ascending in
 * `14 · first + second` as legacy tables order them.
 *
 * @param pool - evolution-basis flavour indices (0…13)
 * @param count - at most `pool.length²`
 */
export function luminosityChannels(
  pool: readonly number[],
  count: number,
  random: SeededRandom,
): [number, number][] {
  const order = shuffledIndices(pool.length * pool.length, random);
  return Array.from(order.subarray(0, count), (k): [number, number] => [
    pool[Math.floor(k / pool.length)],
    pool[k % pool.length],
  ]).sort((a, b) => 14 * a[0] + a[1] - (14 * b[0] + b[1]));
}

/**
 * Uniform values in [0, 2·mean) with 32 random bits each (one draw per value: the hadronic
 * tables hold 1.5·10⁸ values), so that a prediction is `mean × (sum of the PDF terms)`.
 */
function randomValues(length: number, mean: number, random: SeededRandom): Float64Array {
  const values = new Float64Array(length);
  const scale = (2 * mean) / 2 ** 32;
  for (let i = 0; i < length; i++) values[i] = scale * random.nextUint32();
  return values;
}

/**
 * A dense random DIS FK table, values `(data, channel, x)` with mean `1 / (channels · x)`, so a
 * prediction is of the order of the PDF itself.
 */
export function randomDisTable(
  name: string,
  ndata: number,
  channels: readonly number[],
  xGrid: Float64Array,
  random: SeededRandom,
): DisFkTable {
  const size = channels.length * xGrid.length;
  return {
    name,
    file: SYNTHETIC_FILE,
    q0: SYNTHETIC_Q0,
    ndata,
    xGrid,
    cFactors: [],
    hadronic: false,
    channels: [...channels],
    values: randomValues(ndata * size, 1 / size, random),
  };
}

/**
 * A dense random hadronic FK table, values `(data, channel, x1, x2)` with mean
 * `1 / (channels · x²)`.
 */
export function randomHadronicTable(
  name: string,
  ndata: number,
  channels: readonly (readonly [number, number])[],
  xGrid: Float64Array,
  random: SeededRandom,
): HadronicFkTable {
  const size = channels.length * xGrid.length * xGrid.length;
  return {
    name,
    file: SYNTHETIC_FILE,
    q0: SYNTHETIC_Q0,
    ndata,
    xGrid,
    cFactors: [],
    hadronic: true,
    channels: channels.map(([first, second]) => [first, second] as const),
    values: randomValues(ndata * size, 1 / size, random),
  };
}

/**
 * The kinematic limits of one hadronic table: τₙ for each of its `ndata` points, log-uniform in
 * `[minTau, maxTau]`, ascending.
 */
export function kinematicLimits(
  ndata: number,
  { minTau, maxTau }: HadronicKinematics,
  random: SeededRandom,
): Float64Array {
  const span = Math.log(maxTau / minTau);
  const limits = Float64Array.from({ length: ndata }, () =>
    Math.exp(Math.log(minTau) + (span * random.nextUint32()) / 2 ** 32),
  );
  return limits.sort();
}

/**
 * Zeroes a hadronic table's values `(data, channel, x1, x2)` where `x1 · x2` is below its data
 * point's limit, in place; returns the fraction of values zeroed.
 */
export function applyKinematicLimits(table: HadronicFkTable, limits: Float64Array): number {
  const { xGrid, values } = table;
  const nx = xGrid.length;
  const block = nx * nx;
  const channels = table.channels.length;
  let zeroed = 0;
  for (let n = 0; n < table.ndata; n++) {
    for (let c = 0; c < channels; c++) {
      const offset = (n * channels + c) * block;
      for (let a = 0; a < nx; a++) {
        for (let b = 0; b < nx; b++) {
          if (xGrid[a] * xGrid[b] < limits[n]) {
            values[offset + a * nx + b] = 0;
            zeroed++;
          }
        }
      }
    }
  }
  return zeroed / values.length;
}
