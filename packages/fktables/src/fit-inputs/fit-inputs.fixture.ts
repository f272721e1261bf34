import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FkTensor, ObservableTensors } from '@partonfit/core';
import { SHARED_DATA } from '@partonfit/testing/shared-data';

/**
 * A runcard over real inputs in ../shared/data: two npz bundles, ATLAS tt̄ from commondata with
 * its FK table named explicitly, and the POSXDQ positivity set found in the theory folder.
 */
export function realDataRuncard(extra = ''): string {
  return `
dataset_inputs:
  - { dataset: HERACOMBCCEM, bundle: ${SHARED_DATA}bundles/HERACOMBCCEM.npz, frac: 0.75 }
  - { dataset: SLACP, bundle: ${SHARED_DATA}bundles/SLACP.npz, frac: 0.5 }
  - dataset: ATLAS_TTBAR_13TEV_TOT_X-SEC
    variant: legacy
    fktables: [${SHARED_DATA}theory_200/fastkernel/FK_ATLASTTBARTOT13TEV.dat]
datacuts: { t0pdfset: NNPDF40_nnlo_as_01180 }
theory: { theoryid: 200 }
data_paths:
  theories: ${SHARED_DATA}
  commondata: ${SHARED_DATA}commondata
  lhapdf: ${SHARED_DATA}lhapdf
positivity:
  posdatasets: [{ dataset: POSXDQ, maxlambda: 1e6 }]
trvlseed: 3
nnseed: 2
mcseed: 1
diagonal_basis: false
parameters:
  nodes_per_layer: [25, 20, 8]
  activation_per_layer: [tanh, tanh, linear]
  optimizer: { optimizer_name: Nadam }
  epochs: 1000
  stopping_patience: 0.1
fitting:
  fitbasis: EVOL
  basis:
${['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].map((fl) => `    - { fl: ${fl}, smallx: [1.0, 1.1], largex: [1.5, 3.0] }`).join('\n')}
${extra}`;
}

/** Writes `text` as `runcard.yml` in a fresh temporary folder and returns its path. */
export async function writeTemporaryRuncard(text: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-fit-inputs-'));
  const file = join(folder, 'runcard.yml');
  await writeFile(file, text);
  return file;
}

/** One table's predictions from its step tensor, in float64: the layers' formula as a loop. */
function predictTensor(table: FkTensor, xf: Float64Array): Float64Array {
  const predictions = new Float64Array(table.ndata);
  const nc = table.channels.length;
  const at = (a: number, flavour: number) => xf[(table.xOffset + a) * 14 + flavour];
  for (let a = 0; a < table.nx; a++) {
    if (table.kind === 'dis') {
      table.channels.forEach((flavour, c) => {
        const row = (a * nc + c) * table.ndata;
        for (let n = 0; n < table.ndata; n++)
          predictions[n] += table.values[row + n] * at(a, flavour);
      });
      continue;
    }
    for (let b = 0; b < table.nx; b++) {
      table.channels.forEach(([first, second], c) => {
        const luminosity = at(a, first) * at(b, second);
        const row = ((a * table.nx + b) * nc + c) * table.ndata;
        for (let n = 0; n < table.ndata; n++) predictions[n] += table.values[row + n] * luminosity;
      });
    }
  }
  return predictions;
}

/** Predictions of a NULL observable from its step tensors and x·f on the fit's x-grid. */
export function predictFromTensors(observable: ObservableTensors, xf: Float64Array): Float64Array {
  const [operand] = observable.operands;
  const parts = operand.map((table) => predictTensor(table, xf));
  const predictions = new Float64Array(observable.ndata);
  let offset = 0;
  for (const part of parts) {
    predictions.set(part, offset);
    offset += part.length;
  }
  return predictions;
}
