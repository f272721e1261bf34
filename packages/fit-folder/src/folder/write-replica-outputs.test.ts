import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVOLUTION_BASIS_SIZE, ShapeError } from '@partonfit/core';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPORT_X_GRID } from './export-x-grid.js';
import { exportGridText } from './exportgrid.js';
import { replicaJson, type ReplicaSummary } from './replica-json.js';
import { writeReplicaOutputs } from './write-replica-outputs.js';

const SUMMARY: ReplicaSummary = {
  preprocessing: [{ flavour: 'g', smallX: 1.1, largeX: 3.2, trainable: false }],
  stopEpoch: 500,
  bestEpoch: 420,
  trainingChi2: 1.2,
  validationChi2: 1.4,
  experimentalChi2: 1.3,
  positivity: 'POS_PASS',
  arcLengths: [1, 1, 1, 1, 1],
  integrability: [0, 0, 0, 0, 0],
  timing: { walltime: { Total: 1 }, cputime: { Total: 1 } },
  backend: 'cpu',
  version: { partonfit: '0.1.0' },
};

/** x·g = x(1 − x) in the gluon column, everything else 0. */
function gluonOnly(): Float64Array {
  const values = new Float64Array(EXPORT_X_GRID.length * EVOLUTION_BASIS_SIZE);
  EXPORT_X_GRID.forEach((x, ix) => {
    values[ix * EVOLUTION_BASIS_SIZE + 2] = x * (1 - x);
  });
  return values;
}

describe('writeReplicaOutputs', () => {
  let output: string;

  beforeEach(async () => {
    output = await mkdtemp(join(tmpdir(), 'partonfit-fit-folder-'));
  });

  afterEach(async () => {
    await rm(output, { recursive: true, force: true });
  });

  it("should write the replica's exportgrid and JSON into nnfit/replica_<r>", async () => {
    const xfEvolution = gluonOnly();
    const paths = await writeReplicaOutputs({
      outputFolder: output,
      fitName: 'closure',
      replica: 3,
      exportGrid: { q0: 1.65, xfEvolution },
      summary: SUMMARY,
    });
    expect(paths.replicaFolder).toBe(join(output, 'closure', 'nnfit', 'replica_3'));
    expect((await readdir(paths.replicaFolder)).sort()).toEqual([
      'closure.exportgrid',
      'closure.json',
    ]);
    const exportGrid = await readFile(paths.exportGrid, 'utf8');
    expect(exportGrid).toBe(exportGridText({ replica: 3, q0: 1.65, xfEvolution }));
    const gluon = (parse(exportGrid) as { pdfgrid: number[][] }).pdfgrid.map((row) => row[6]);
    expect(gluon[100]).toBeCloseTo(EXPORT_X_GRID[100] * (1 - EXPORT_X_GRID[100]), 15);
    expect(await readFile(paths.json, 'utf8')).toBe(replicaJson(SUMMARY));
  });

  it('should write nothing when the input is bad', async () => {
    await expect(
      writeReplicaOutputs({
        outputFolder: output,
        fitName: 'closure',
        replica: 1,
        exportGrid: { q0: 1.65, xfEvolution: new Float64Array(14) },
        summary: SUMMARY,
      }),
    ).rejects.toThrow(ShapeError);
    await expect(access(join(output, 'closure'))).rejects.toThrow(/ENOENT/);
  });

  it('should write a diverged replica’s JSON alone and remove an earlier run’s PDF files', async () => {
    const earlier = await writeReplicaOutputs({
      outputFolder: output,
      fitName: 'closure',
      replica: 2,
      exportGrid: { q0: 1.65, xfEvolution: gluonOnly() },
      summary: SUMMARY,
    });
    await writeFile(earlier.weights, 'weights of an earlier run');
    const diverged: ReplicaSummary = {
      ...SUMMARY,
      stopEpoch: 37,
      bestEpoch: 36,
      experimentalChi2: Number.NaN,
      positivity: 'POS_VETO',
      arcLengths: Array.from({ length: 5 }, () => Number.NaN),
      divergedEpoch: 37,
      runcardSha256: 'ab'.repeat(32),
    };
    const paths = await writeReplicaOutputs({
      outputFolder: output,
      fitName: 'closure',
      replica: 2,
      exportGrid: undefined,
      summary: diverged,
    });
    expect(await readdir(paths.replicaFolder)).toEqual(['closure.json']);
    const json = JSON.parse(await readFile(paths.json, 'utf8')) as Record<string, unknown>;
    expect(json).toMatchObject({
      stop_epoch: 37,
      chi2: null,
      pos_state: 'POS_VETO',
      diverged_epoch: 37,
      arc_lengths: [null, null, null, null, null],
      runcard_sha256: 'ab'.repeat(32),
    });
    expect(Object.keys(json).indexOf('diverged_epoch')).toBe(
      Object.keys(json).indexOf('pos_state') + 1,
    );
  });
});
