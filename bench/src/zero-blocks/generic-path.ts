import * as tf from '@tensorflow/tfjs-core';
import type { FkTensor, HadronicFkTensor } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';
import {
  compactLuminosityRows,
  FkConvolution,
  fkTensorValues,
  type Formulations,
} from '@partonfit/layers';
import { forwardBackward, inputVariable, seededUniform } from '../components/forward-backward.js';
import { summarize } from '../stats/summary.js';

/** A group of hadronic tables timed together: one real table, or a workload's hadronic part. */
export interface HadronicTableGroup {
  /** What the group is: a real table's file, or `<workload> hadronic`. */
  readonly name: string;
  readonly tables: readonly HadronicFkTensor[];
}

/** The generic path's gain of dropping all-zero rows on one group of tables at one R. */
export interface GenericZeroRows {
  readonly name: string;
  readonly tables: number;
  /** (channel, x1, x2) rows of the group's tables, summed. */
  readonly rows: number;
  /** Share of those rows that are zero for every data point of their table. */
  readonly zeroRowShare: number;
  readonly replicas: number;
  /** Median wall ms of forward + backward with the dense luminosity product. */
  readonly denseMs: number;
  /** The same with every table's zero rows dropped. */
  readonly compactMs: number;
  /** Median process CPU ms of the same calls, dense. */
  readonly denseCpuMs: number;
  readonly compactCpuMs: number;
}

const LUMINOSITY: Formulations = { dis: 'compact', hadronic: 'luminosity' };

/** Shares at which a table is always dense, and always compact. */
const NEVER = 2;
const ALWAYS = 0;

/** Median wall and CPU ms of forward + backward of one table, dense and compact, at one R. */
interface TableTimes {
  readonly wall: readonly [number, number];
  readonly cpu: readonly [number, number];
}

/** Times one table's two variants at each R, interleaved call by call. */
function timeTable(
  table: HadronicFkTensor,
  values: Float32Array,
  replicasList: readonly number[],
  repeats: number,
): TableTimes[] {
  const fk = tf.tensor2d(values, [values.length / table.ndata, table.ndata]);
  const variants = [NEVER, ALWAYS].map(
    (share) => new FkConvolution(table, LUMINOSITY, 'auto', share),
  );
  try {
    return replicasList.map((replicas) => {
      const pdf = inputVariable(seededUniform([replicas, table.xOffset + table.nx, 14], 0.1, 1, 1));
      const upstream = seededUniform([replicas, table.ndata], -1, 1, 2);
      const run = (convolution: FkConvolution) => {
        forwardBackward(() => convolution.apply(pdf as tf.Tensor3D, fk), upstream, [pdf]);
      };
      const wall: [number[], number[]] = [[], []];
      const cpu: [number[], number[]] = [[], []];
      variants.forEach(run);
      for (let i = 0; i < repeats; i++) {
        variants.forEach((convolution, v) => {
          const cpuStart = process.cpuUsage();
          const start = performance.now();
          run(convolution);
          wall[v].push(performance.now() - start);
          const { user, system } = process.cpuUsage(cpuStart);
          cpu[v].push((user + system) / 1000);
        });
      }
      tf.dispose([pdf, upstream]);
      const median = (times: number[]) => summarize(times).median;
      return {
        wall: [median(wall[0]), median(wall[1])],
        cpu: [median(cpu[0]), median(cpu[1])],
      };
    });
  } finally {
    for (const convolution of variants) convolution.dispose();
    fk.dispose();
  }
}

/**
 * Times forward + backward of the hadronic contraction of a group of tables on the active
 * backend's generic path (not the fused kernels: run it on `wasm` or `cpu`), with the dense
 * luminosity product and with each table's all-zero (channel, x1, x2) rows dropped, the two
 * interleaved call by call: per R, the sums over the tables of their wall and process CPU
 * medians. One table's tensors are alive at a time.
 *
 * @param group - the tables, each read on its own x nodes
 * @param replicasList - the replica counts
 * @param repeats - timed calls per variant, table and R (after one untimed call of each)
 */
export function measureGenericZeroRows(
  group: HadronicTableGroup,
  replicasList: readonly number[],
  repeats: number,
): GenericZeroRows[] {
  let rows = 0;
  let zeroRows = 0;
  const sums = replicasList.map(() => ({ wall: [0, 0], cpu: [0, 0] }));
  for (const table of group.tables) {
    const values = fkTensorValues(table, LUMINOSITY);
    const tableRows = table.channels.length * table.nx * table.nx;
    rows += tableRows;
    zeroRows += tableRows - compactLuminosityRows(values, tableRows).rows.length;
    timeTable(table, values, replicasList, repeats).forEach((times, i) => {
      for (const v of [0, 1]) {
        sums[i].wall[v] += times.wall[v];
        sums[i].cpu[v] += times.cpu[v];
      }
    });
  }
  return replicasList.map((replicas, i) => ({
    name: group.name,
    tables: group.tables.length,
    rows,
    zeroRowShare: zeroRows / rows,
    replicas,
    denseMs: sums[i].wall[0],
    compactMs: sums[i].wall[1],
    denseCpuMs: sums[i].cpu[0],
    compactCpuMs: sums[i].cpu[1],
  }));
}

/** The hadronic tables of the fit inputs' datasets, every operand's. */
export function hadronicTables(inputs: FitInputs): HadronicFkTensor[] {
  return inputs.datasets
    .flatMap((dataset) => dataset.observable.operands.flat())
    .filter((table: FkTensor): table is HadronicFkTensor => table.kind === 'hadronic');
}

/**
 * {@link measureGenericZeroRows} at each R, ascending, leaving out every R whose projected time
 * (linear in R from the last measured one) exceeds the budget.
 *
 * @param budgetSeconds - seconds one R's measurement may take; Infinity: unlimited
 */
export function measureGenericZeroRowsWithinBudget(
  group: HadronicTableGroup,
  replicasList: readonly number[],
  repeats: number,
  budgetSeconds: number,
): GenericZeroRows[] {
  const results: GenericZeroRows[] = [];
  for (const replicas of [...replicasList].sort((a, b) => a - b)) {
    const last = results.at(-1);
    const projected =
      last === undefined
        ? 0
        : ((last.denseMs + last.compactMs) * (repeats + 1) * replicas) / last.replicas / 1000;
    if (projected > budgetSeconds) break;
    results.push(...measureGenericZeroRows(group, [replicas], repeats));
  }
  return results;
}
