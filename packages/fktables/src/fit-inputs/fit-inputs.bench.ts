import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRuncard } from '@partonfit/core';
import { bench, describe } from 'vitest';
import { chi2StructureBytes } from '../splits/chi2-reference.js';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { realDataRuncard, writeTemporaryRuncard } from './fit-inputs.fixture.js';
import { prepareFitInputs } from './prepare-fit-inputs.js';

const present = hasSharedData('bundles/HERACOMBNCEP920.npz', 'the fit-inputs benchmark');
const REPLICAS = Array.from({ length: 100 }, (_, i) => i + 1);
const withHeraNc = (diagonalBasis: boolean) =>
  realDataRuncard()
    .replace(
      'dataset_inputs:\n',
      `dataset_inputs:\n  - { dataset: HERACOMBNCEP920, bundle: ${SHARED_DATA}bundles/HERACOMBNCEP920.npz }\n`,
    )
    .replace('diagonal_basis: false', `diagonal_basis: ${diagonalBasis}`);

/**
 * Set-up of the real-data fit inputs (3 bundles with 452 points, ATLAS tt̄, POSXDQ, t0 from
 * NNPDF4.0) for 100 replicas: cold (parse, covariance, pseudodata, split) and from the HDF5
 * cache, for both kinds of split; prints the memory of the χ² structures.
 */
describe.skipIf(!present)('fit inputs, 100 replicas, real data', async () => {
  for (const diagonalBasis of [false, true]) {
    const text = withHeraNc(diagonalBasis);
    const runcardFile = await writeTemporaryRuncard(text);
    const { runcard } = parseRuncard(text, { file: runcardFile });
    const cacheFolder = await mkdtemp(join(tmpdir(), 'partonfit-bench-cache-'));
    const label = diagonalBasis ? 'diagonal basis' : 'data points';
    bench(
      `cold, ${label}`,
      async () => {
        const { inputs } = await prepareFitInputs(runcard, {
          runcardFile,
          replicas: REPLICAS,
          cacheFolder: null,
        });
        const megabytes = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
        console.log(
          `${label}: N = ${inputs.ndata}, training ${megabytes(chi2StructureBytes(inputs.training))} MB, validation ${megabytes(chi2StructureBytes(inputs.validation))} MB, experimental ${megabytes(chi2StructureBytes(inputs.experimental))} MB, pseudodata ${megabytes(inputs.pseudodata.byteLength)} MB`,
        );
      },
      { iterations: 3, warmupIterations: 0 },
    );
    await prepareFitInputs(runcard, { runcardFile, replicas: REPLICAS, cacheFolder });
    bench(
      `cached, ${label}`,
      async () => {
        await prepareFitInputs(runcard, { runcardFile, replicas: REPLICAS, cacheFolder });
      },
      { iterations: 10, warmupIterations: 1 },
    );
  }
});
