import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError, parseRuncard } from '@partonfit/core';
import { evolutionBasisXf, loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { loadPineapplFkTable } from '../fktable/pineappl-fk-table.js';
import { predictFkTable } from '../fktable/predict.js';
import { predictFromTensors, writeTemporaryRuncard } from './fit-inputs.fixture.js';
import { prepareFitInputs } from './prepare-fit-inputs.js';

const TABLE = `${SHARED_DATA}theory_208/fastkernel/HERA_CC_318GEV_EM_SIGMARED.pineappl.lz4`;
const present =
  hasSharedData('theory_208/fastkernel', 'fit inputs from a PineAPPL theory folder') &&
  hasSharedData('commondata/HERA_CC_318GEV', 'fit inputs from a PineAPPL theory folder');

/** A runcard naming HERA CC e⁻p by its commondata name, its tables found in theory `id`. */
function runcardText(theoryId: number): string {
  return `
dataset_inputs:
  - { dataset: HERA_CC_318GEV_EM-SIGMARED, variant: legacy, frac: 0.75 }
theory: { theoryid: ${theoryId} }
trvlseed: 3
nnseed: 2
mcseed: 1
data_paths:
  theories: ${SHARED_DATA}
  commondata: ${SHARED_DATA}commondata
parameters:
  nodes_per_layer: [25, 20, 8]
  activation_per_layer: [tanh, tanh, linear]
  optimizer: { optimizer_name: Nadam }
  epochs: 100
  stopping_patience: 0.1
fitting:
  fitbasis: EVOL
  basis:
${['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].map((fl) => `    - { fl: ${fl}, smallx: [1.0, 1.1], largex: [1.5, 3.0] }`).join('\n')}
`;
}

async function prepare(theoryId: number, cacheFolder: string | null, runcardFile?: string) {
  const text = runcardText(theoryId);
  const file = runcardFile ?? (await writeTemporaryRuncard(text));
  const { runcard } = parseRuncard(text, { file });
  return prepareFitInputs(runcard, { runcardFile: file, replicas: [1, 2], cacheFolder });
}

describe.skipIf(!present)('fit inputs with a PineAPPL FK table found through commondata', () => {
  it('should resolve theory:FK_tables to <name>.pineappl.lz4 in theory 208, and cache it', async () => {
    const cacheFolder = await mkdtemp(join(tmpdir(), 'partonfit-cache-'));
    const runcardFile = await writeTemporaryRuncard(runcardText(208));
    const built = await prepare(208, cacheFolder, runcardFile);
    const { inputs } = built;
    expect(built.cached).toBe(false);
    expect(inputs.datasets.map(({ name, ndata }) => [name, ndata])).toEqual([
      ['HERA_CC_318GEV_EM-SIGMARED', 42],
    ]);
    expect(inputs.q0).toBeCloseTo(1.65, 10);
    expect(inputs.sources).toContain(TABLE);

    const set = await loadLhapdfSet(`${SHARED_DATA}lhapdf/NNPDF40_nnlo_as_01180`);
    const member = await loadLhapdfMember(set, 0);
    const xf = evolutionBasisXf(member, inputs.xGrid, inputs.q0);
    const fromTensors = predictFromTensors(inputs.datasets[0].observable, xf);
    const { fkTable } = await loadPineapplFkTable(TABLE);
    const direct = predictFkTable(fkTable, evolutionBasisXf(member, fkTable.xGrid, fkTable.q0));
    fromTensors.forEach((value, n) => {
      expect(value / direct[n]).toBeCloseTo(1, 5);
    });

    const again = await prepare(208, cacheFolder, runcardFile);
    expect(again.cached).toBe(true);
    expect(again.inputs.datasets[0].observable.operands[0][0].values).toEqual(
      inputs.datasets[0].observable.operands[0][0].values,
    );
  });

  it('should name the files it looked for in a theory without the table', async () => {
    const error = await prepare(200, null).then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(InputFileError.isInstance(error)).toBe(true);
    expect((error as InputFileError).file).toBe(`${SHARED_DATA}theory_200/fastkernel`);
    expect((error as Error).message).toContain(
      'FK_HERA_CC_318GEV_EM_SIGMARED.dat, HERA_CC_318GEV_EM_SIGMARED.pineappl.lz4',
    );
  });
});
