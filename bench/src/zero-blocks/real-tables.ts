import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import type { HadronicFkTensor } from '@partonfit/core';
import { loadFkTable, toFkTensor, type HadronicFkTable } from '@partonfit/fktables';
import { fkTensorValues, flavourLuminosityContraction } from '@partonfit/layers';
import { forwardBackward, inputVariable, seededUniform } from '../components/forward-backward.js';
import { timeRepeated } from '../measure/time-repeated.js';

/** The zero-block gain on one real hadronic FK table. */
export interface RealTableZeroBlocks {
  /** The table's file, relative to the shared data folder. */
  readonly table: string;
  readonly x: number;
  /** Channels of the step's tensor, mirrored pairs merged. */
  readonly channels: number;
  readonly data: number;
  /** Share of the step tensor's (channel, x1, x2, data) values that are zero. */
  readonly zeroFraction: number;
  /** Median ms of forward + backward at `replicas`, on the table as it is. */
  readonly sparseMs: number;
  /** The same with every zero replaced by 10⁻³⁰: no block left to skip, the same arithmetic. */
  readonly denseMs: number;
  readonly replicas: number;
}

/** A value that is not zero, far below anything an FK table holds, and no float32 denormal. */
const NOT_ZERO = 1e-30;

/** The hadronic legacy FK tables of every `theory_*` folder of the shared data. */
export async function realHadronicTables(sharedData: string): Promise<string[]> {
  return (await loadRealHadronicTables(sharedData)).map(({ file }) => file);
}

/**
 * The hadronic legacy FK tables of every `theory_*` folder of the shared data with their files
 * (relative to the folder), each read once; none when the folder is missing.
 */
export async function loadRealHadronicTables(
  sharedData: string,
): Promise<{ file: string; table: HadronicFkTable }[]> {
  if (!existsSync(sharedData)) return [];
  const theories = (await readdir(sharedData)).filter((name) => name.startsWith('theory_'));
  const tables: { file: string; table: HadronicFkTable }[] = [];
  for (const theory of theories.sort()) {
    const folder = join(theory, 'fastkernel');
    if (!existsSync(join(sharedData, folder))) continue;
    for (const name of (await readdir(join(sharedData, folder))).sort()) {
      if (!/^FK_.*\.dat$/.test(name)) continue;
      const table = await loadFkTable(join(sharedData, folder, name));
      if (table.hadronic) tables.push({ file: join(folder, name), table });
    }
  }
  return tables;
}

/** Forward + backward of one table's contraction at R replicas, median ms. */
async function contractionMs(
  table: HadronicFkTensor,
  values: Float32Array,
  replicas: number,
  repeats: number,
): Promise<number> {
  const nx = table.nx;
  const fk = tf.tensor2d(values, [table.channels.length * nx * nx, table.ndata]);
  const pdf = inputVariable(seededUniform([replicas, nx, 14], 0, 1, 1));
  const upstream = seededUniform([replicas, table.ndata], -1, 1, 2);
  try {
    const stats = await timeRepeated(
      () => {
        forwardBackward(
          () => flavourLuminosityContraction(pdf as tf.Variable<tf.Rank.R3>, table.channels, fk),
          upstream,
          [pdf],
        );
      },
      repeats,
      2,
    );
    return stats.median;
  } finally {
    tf.dispose([fk, pdf, upstream]);
  }
}

/**
 * Times the hadronic contraction (forward + backward, the layers' fused path) on each real
 * hadronic table of the shared data, as it is and with its zeros replaced by 10⁻³⁰, on the
 * active backend: the gain of skipping zero blocks on real kinematics.
 *
 * @param sharedData - the shared data folder (none found: an empty list)
 */
export async function measureRealTableZeroBlocks(
  sharedData: string,
  replicas: number,
  repeats: number,
): Promise<RealTableZeroBlocks[]> {
  const results: RealTableZeroBlocks[] = [];
  for (const { file, table } of await loadRealHadronicTables(sharedData)) {
    const tensor = toFkTensor(table, 0) as HadronicFkTensor;
    const values = fkTensorValues(tensor, { dis: 'compact', hadronic: 'luminosity' });
    const zeros = values.reduce((count, value) => count + (value === 0 ? 1 : 0), 0);
    const filled = values.map((value) => (value === 0 ? NOT_ZERO : value));
    results.push({
      table: file,
      x: tensor.nx,
      channels: tensor.channels.length,
      data: tensor.ndata,
      zeroFraction: zeros / values.length,
      sparseMs: await contractionMs(tensor, values, replicas, repeats),
      denseMs: await contractionMs(tensor, filled, replicas, repeats),
      replicas,
    });
  }
  return results;
}
