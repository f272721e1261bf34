import { datasetInputSchema, loadRuncard } from '@partonfit/core';
import type * as Evolution from '@partonfit/evolution';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { describe, expect, it, vi } from 'vitest';
import { toyPdfXf } from '../closure/toy-pdf.js';
import { DEFAULT_DIS_CUTS, kinematicCutMask } from '../cuts/kinematic-cuts.js';
import { predictObservable } from '../fktable/predict.js';
import type { InputPaths } from './input-paths.js';

vi.mock('@partonfit/evolution', async (importOriginal) => {
  const evolution = await importOriginal<typeof Evolution>();
  return { ...evolution, buildEvolutionOperator: vi.fn(evolution.buildEvolutionOperator) };
});

// The closure operators are memoised per process, and test files share a worker's modules
// (`isolate: false`): a file before this one may have built them. Fresh modules count from zero.
vi.resetModules();
const { buildEvolutionOperator } = await import('@partonfit/evolution');
const { closureDatasetsAtScale } = await import('../closure/scale-varied-closure.js');
const { prepareFitInputs } = await import('./prepare-fit-inputs.js');
const { resolveDataset } = await import('./resolve-dataset.js');

/** Embedded datasets need no path. */
const PATHS: InputPaths = {
  runcardFile: 'embedded.yml',
  runcardFolder: '.',
  theories: undefined,
  commondata: undefined,
  lhapdf: undefined,
  theoryId: undefined,
};

const SCALE_VARIED = ['CLOSURE_F2P_Q', 'CLOSURE_F2D_Q', 'CLOSURE_NU_F2_Q', 'CLOSURE_NU_XF3_Q'];

function resolve(dataset: string) {
  return resolveDataset(datasetInputSchema.parse({ dataset }), PATHS, DEFAULT_DIS_CUTS);
}

// In file order: the first test runs before any operator of these modules is built.
describe('resolveDataset: embedded closure datasets', () => {
  it('should build no DGLAP operator for the embedded closure runcard, whose datasets are at Q0', async () => {
    const { runcard } = await loadRuncard(CLOSURE_RUNCARD);
    const { inputs } = await prepareFitInputs(runcard, {
      runcardFile: CLOSURE_RUNCARD,
      replicas: [1],
      cacheFolder: null,
    });
    expect(inputs.datasets.map(({ name }) => name)).toContain('CLOSURE_F2P');
    expect(buildEvolutionOperator).not.toHaveBeenCalled();
  });

  it('should resolve the scale-varied names at μF = Q, building one operator for all of them', async () => {
    const resolved = [];
    for (const name of SCALE_VARIED) resolved.push(await resolve(name));
    expect(buildEvolutionOperator).toHaveBeenCalledTimes(1);
    const expected = closureDatasetsAtScale({ factorisationScaleRatio: 1 });
    expect(buildEvolutionOperator).toHaveBeenCalledTimes(1);
    resolved.forEach(({ name, commonData, observable }, d) => {
      const { data, process, kinematics } = expected[d];
      expect([name, commonData.name]).toEqual([SCALE_VARIED[d], SCALE_VARIED[d]]);
      expect(Array.from(commonData.central)).toEqual(Array.from(data));
      expect(commonData.processType).toBe(process.replace(' ', '_'));
      expect(commonData.kinematics.variables).toEqual(['x', 'Q2', 'y']);
      expect(Array.from(commonData.kinematics.values.filter((_, k) => k % 3 === 1))).toEqual(
        Array.from(kinematics.q2),
      );
      expect(kinematicCutMask(commonData, DEFAULT_DIS_CUTS).every((keep) => keep === 1)).toBe(true);
      predictObservable(observable, toyPdfXf).forEach((prediction, n) => {
        expect(prediction / data[n]).toBeCloseTo(1, 12);
      });
    });
  });

  it('should list every embedded dataset, at Q0 and scale-varied, for an unknown CLOSURE_ name', async () => {
    await expect(resolve('CLOSURE_F2P_Q2')).rejects.toThrow(
      'CLOSURE_F2P_Q2: no such embedded dataset; there are CLOSURE_F2P, CLOSURE_F2D, CLOSURE_NU_F2, CLOSURE_NU_XF3, CLOSURE_NUB_F2, CLOSURE_NUB_XF3, CLOSURE_NU_DIMUON, CLOSURE_NUB_DIMUON, CLOSURE_F2C, CLOSURE_XG, CLOSURE_F2P_Q, CLOSURE_F2D_Q, CLOSURE_NU_F2_Q, CLOSURE_NU_XF3_Q',
    );
  });
});
