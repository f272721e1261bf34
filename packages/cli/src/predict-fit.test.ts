import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRuncard } from '@partonfit/core';
import { initBackend } from '@partonfit/backend';
import { prepareFitInputs, type FitInputs } from '@partonfit/fktables';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  replicaPredictions,
  runFingerprint,
  sliceReplicas,
  trainReplicas,
  writeReplicaWeights,
} from '@partonfit/trainer';
import { fitFolderPaths } from '@partonfit/fit-folder';
import { writeClosureRuncard } from '@partonfit/testing';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { runCaptured as run } from './cli.fixture.js';

const REPLICAS = [1, 2, 3];

/** Float32 tolerance, relative, between the trainer's float32 and predict's float64 sums. */
const TOLERANCE = 1e-5;

interface PredictJson {
  pdf: string;
  member: number;
  replicas: { source: string; members: number[] };
  q0: number;
  ndata: number;
  predictions: number[];
  replicaPredictions: { member: number; predictions: number[] }[];
}

/**
 * Trains replicas 1–3 of a short closure runcard on cpu and writes the fit folder `<tmp>/tiny`
 * as `runFit` does it (runcard.yml, each replica's weights.h5), keeping the trainer's final
 * predictions `(replicas, data)`.
 */
async function trainedFit(): Promise<{ fit: string; inputs: FitInputs; trainer: Float64Array }> {
  await initBackend('cpu');
  const { folder, runcard: runcardFile } = await writeClosureRuncard('tiny', {
    epochs: 30,
    chargedLeptonsOnly: true,
  });
  const { runcard } = await loadRuncard(runcardFile);
  const { inputs } = await prepareFitInputs(runcard, {
    runcardFile,
    replicas: REPLICAS,
    cacheFolder: null,
  });
  const result = await trainReplicas(runcard, inputs);
  const pdf = result.model.forward();
  const trainer = await replicaPredictions(result.objective, pdf);
  pdf.dispose();
  const parameters = await sliceReplicas(result.model);
  const fit = join(folder, 'tiny');
  await mkdir(fit);
  await copyFile(runcardFile, join(fit, 'runcard.yml'));
  for (const [r, replica] of REPLICAS.entries()) {
    const paths = fitFolderPaths(folder, 'tiny', replica);
    await mkdir(paths.replicaFolder, { recursive: true });
    await writeReplicaWeights(paths.weights, parameters[r], {
      fit: 'tiny',
      replica,
      runcardSha256: runFingerprint(runcard, REPLICAS).runcardSha256,
      q0: inputs.q0,
      backend: 'cpu',
      version: '0.1.0',
    });
  }
  result.objective.dispose();
  result.model.dispose();
  return { fit, inputs, trainer };
}

async function predictJson(...args: string[]): Promise<PredictJson> {
  const { code, out, error } = await run('predict', '--json', ...args);
  expect(error).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as PredictJson;
}

function expectClose(actual: readonly number[], expected: ArrayLike<number>): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, n) => {
    expect(Math.abs(value - expected[n])).toBeLessThanOrEqual(
      TOLERANCE * Math.max(Math.abs(expected[n]), 1e-3),
    );
  });
}

describe('partonfit predict --pdf <fit folder>', () => {
  let fit: string;
  let inputs: FitInputs;
  let trainer: Float64Array;

  beforeAll(async () => {
    ({ fit, inputs, trainer } = await trainedFit());
  });

  it('should give the trainer’s own final predictions, replica by replica', async () => {
    for (const dataset of inputs.datasets) {
      const expected = (r: number) =>
        trainer.subarray(
          r * inputs.ndata + dataset.offset,
          r * inputs.ndata + dataset.offset + dataset.ndata,
        );
      for (const [r, replica] of REPLICAS.entries()) {
        const result = await predictJson(
          '--pdf',
          fit,
          '--dataset',
          dataset.name,
          '--member',
          `${replica}`,
        );
        expect(result.replicas).toEqual({ source: 'nnfit', members: REPLICAS });
        expectClose(result.predictions, expected(r));
      }
      const mean = await predictJson('--pdf', fit, '--dataset', dataset.name);
      expect(mean.member).toBe(0);
      expect(mean.replicaPredictions.map(({ member }) => member)).toEqual(REPLICAS);
      mean.replicaPredictions.forEach(({ predictions }, r) => {
        expectClose(predictions, expected(r));
      });
      const average = Array.from(
        { length: dataset.ndata },
        (_, n) => REPLICAS.reduce((sum, _replica, r) => sum + expected(r)[n], 0) / REPLICAS.length,
      );
      expectClose(mean.predictions, average);
    }
    // the replicas differ, so the comparison tells them apart
    expect(Math.abs(trainer[0] - trainer[inputs.ndata])).toBeGreaterThan(
      1e-3 * Math.abs(trainer[0]),
    );
  });

  it('should print a table like the LHAPDF path', async () => {
    const table = await run('predict', '--pdf', fit, '--dataset', inputs.datasets[0].name);
    expect(table.code).toBe(0);
    expect(table.out).toContain(
      `fit tiny (nnfit, 3 replicas) member 0 (mean of the replicas) at Q0 = ${inputs.q0} GeV`,
    );
    expect(table.out).toMatch(/χ² = \d+\.\d{3} for \d+ points/);
  });

  it('should refuse a member the fit does not have', async () => {
    const beyond = await run('predict', '--pdf', fit, '--member', '4', '--dataset', 'CLOSURE_F2P');
    expect(beyond.code).toBe(1);
    expect(beyond.error).toContain('fit tiny (nnfit) has members 0 (the mean) and 1, 2, 3; got 4');
    expect(
      (await run('predict', '--pdf', fit, '--backend', 'gpu', '--dataset', 'CLOSURE_F2P')).code,
    ).toBe(2);
  });

  it.skipIf(!hasSharedData('theory_200/fastkernel/FK_POSXDQ.dat', 'the Q0 mismatch test'))(
    'should refuse an FK table at another Q0 than the fit’s',
    async () => {
      const table = `${SHARED_DATA}theory_200/fastkernel/FK_POSXDQ.dat`;
      const other = await run('predict', '--pdf', fit, '--fktable', table);
      expect(other.code).toBe(1);
      expect(other.error).toContain(
        `${table}: Q0: the table is at Q0 = 1.65 GeV, but fit tiny's PDF is at Q0 = ${inputs.q0} GeV`,
      );
    },
  );
});
