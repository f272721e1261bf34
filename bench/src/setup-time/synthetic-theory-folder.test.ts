import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRuncard } from '@partonfit/core';
import {
  interpolationXGrid,
  loadFkTable,
  predictFkTable,
  prepareFitInputs,
  toyPdfXf,
  type PreparedFitInputs,
} from '@partonfit/fktables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_WORKLOAD } from '../workloads/workloads.fixture.js';
import {
  HADRONIC_FILE_X_GRID,
  SYNTHETIC_THEORY_ID,
  writeSyntheticTheoryFolder,
  type SyntheticTheoryFolder,
} from './synthetic-theory-folder.js';

describe('writeSyntheticTheoryFolder on the tiny workload', () => {
  let folders: string[] = [];
  let written: SyntheticTheoryFolder;
  let prepared: PreparedFitInputs;

  beforeAll(async () => {
    folders = await Promise.all(
      [1, 2].map(() => mkdtemp(join(tmpdir(), 'partonfit-bench-theory-test-'))),
    );
    written = await writeSyntheticTheoryFolder(TINY_WORKLOAD, folders[0]);
    await writeSyntheticTheoryFolder(TINY_WORKLOAD, folders[1]);
    const { runcard } = await loadRuncard(written.runcardFile);
    prepared = await prepareFitInputs(runcard, {
      runcardFile: written.runcardFile,
      replicas: [1, 2],
      cacheFolder: null,
    });
  });

  afterAll(async () => {
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('should report the points, tables and bytes it wrote', () => {
    expect(written.points).toBe(18);
    expect(written.tables).toBe(6);
    expect(written.bytes).toBeGreaterThan(10_000);
  });

  it('should be read back by prepareFitInputs with the right counts and blocks', () => {
    const { inputs } = prepared;
    expect(inputs.datasets.map(({ name, offset, ndata }) => [name, offset, ndata])).toEqual([
      ['D1_SYN', 0, 6],
      ['D2_SYN', 6, 4],
      ['D3_SYN', 10, 5],
      ['H1_SYN', 15, 3],
    ]);
    expect(inputs.ndata).toBe(18);
    expect(inputs.q0).toBe(1.65);
    expect(inputs.positivity.map(({ name, ndata, maxLambda }) => [name, ndata, maxLambda])).toEqual(
      [['P1', 3, 1e6]],
    );
    expect(inputs.integrability.map(({ name, ndata }) => [name, ndata])).toEqual([['I1', 2]]);
    // The experiments E1 (D1 + D2, shared special systematics), E2 and E3 are the blocks.
    expect(inputs.experimental.blocks.map(({ offset, size }) => [offset, size])).toEqual([
      [0, 10],
      [10, 5],
      [15, 3],
    ]);
    // The DIS grid (8 nodes) and the hadronic grid (10 nodes), each once.
    expect(inputs.xGrid.length).toBe(8 + HADRONIC_FILE_X_GRID.nodes);
    expect(inputs.pseudodata.length).toBe(2 * 18);
  });

  it('should write central values that are the toy PDF through the written tables', async () => {
    const fastkernel = join(folders[0], `theory_${SYNTHETIC_THEORY_ID}`, 'fastkernel');
    const hadronic = await loadFkTable(join(fastkernel, 'FK_H1.dat'));
    const truth = toyPdfXf(interpolationXGrid(HADRONIC_FILE_X_GRID));
    const predictions = predictFkTable(hadronic, truth);
    const central = prepared.inputs.centralData.subarray(15, 18);
    predictions.forEach((value, n) => {
      expect(value / central[n]).toBeCloseTo(1, 5);
    });
  });

  it('should write the same bytes from the same spec', async () => {
    for (const file of [
      `theory_${SYNTHETIC_THEORY_ID}/fastkernel/FK_D2.dat`,
      `theory_${SYNTHETIC_THEORY_ID}/fastkernel/FK_H1.dat`,
      'commondata/D1/uncertainties.yaml',
      'runcard.yml',
    ]) {
      const [first, second] = await Promise.all(
        folders.map((folder) => readFile(join(folder, file), 'utf8')),
      );
      expect(second).toBe(first);
    }
  });
});
