import { parseRuncard } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { closureDatasets } from '../closure/closure-datasets.js';
import { chi2FromStructure } from '../splits/chi2-reference.js';
import { writeTemporaryRuncard } from './fit-inputs.fixture.js';
import { prepareFitInputs } from './prepare-fit-inputs.js';

function closureRuncard(closuretest: string): string {
  return [
    'dataset_inputs: [{ dataset: CLOSURE_F2P }, { dataset: CLOSURE_XG }]',
    `closuretest: ${closuretest}`,
    'positivity: { posdatasets: [{ dataset: CLOSURE_POS_XG, maxlambda: 1e6 }] }',
    'trvlseed: 3',
    'nnseed: 2',
    'mcseed: 1',
    'genrep: false',
    'parameters: { nodes_per_layer: [8], activation_per_layer: [linear], optimizer: { optimizer_name: Adam }, epochs: 10, stopping_patience: 0.1 }',
    'fitting:',
    '  fitbasis: EVOL',
    '  basis:',
    ...['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].map(
      (fl) => `    - { fl: ${fl}, smallx: [1.0, 1.1], largex: [1.5, 3.0] }`,
    ),
  ].join('\n');
}

async function prepare(closuretest: string) {
  const text = closureRuncard(closuretest);
  const runcardFile = await writeTemporaryRuncard(text);
  const { runcard } = parseRuncard(text, { file: runcardFile });
  return (await prepareFitInputs(runcard, { runcardFile, replicas: [1], cacheFolder: null }))
    .inputs;
}

describe('closure tests in the fit inputs', () => {
  const embedded = closureDatasets();
  const byName = (name: string) => embedded.filter((dataset) => dataset.name === name)[0];
  const [f2p, xg] = [byName('CLOSURE_F2P'), byName('CLOSURE_XG')];
  const truth = [...f2p.toyPredictions, ...xg.toyPredictions];

  it('should use the embedded datasets and positivity sets, with the toy PDF as fake data', async () => {
    const inputs = await prepare('{ fakedata: true, fakepdf: toyLH }');
    expect(inputs.datasets.map(({ name, ndata }) => [name, ndata])).toEqual([
      ['CLOSURE_F2P', f2p.data.length],
      ['CLOSURE_XG', xg.data.length],
    ]);
    expect(inputs.positivity.map((set) => set.name)).toEqual(['CLOSURE_POS_XG']);
    inputs.centralData.forEach((value, i) => {
      expect(value / truth[i]).toBeCloseTo(1, 12);
    });
    expect(Array.from(inputs.pseudodata)).toEqual(
      Array.from(Float32Array.from(inputs.centralData)),
    );
  });

  it('should shift level-1 data once, reproducibly, by about one σ per point', async () => {
    const level1 = await prepare(
      '{ fakedata: true, fakepdf: toyLH, fakenoise: true, filterseed: 5 }',
    );
    const again = await prepare(
      '{ fakedata: true, fakepdf: toyLH, fakenoise: true, filterseed: 5 }',
    );
    const other = await prepare(
      '{ fakedata: true, fakepdf: toyLH, fakenoise: true, filterseed: 6 }',
    );
    expect(Array.from(again.centralData)).toEqual(Array.from(level1.centralData));
    expect(Array.from(other.centralData)).not.toEqual(Array.from(level1.centralData));
    const residuals = level1.centralData.map((value, i) => value - truth[i]);
    const chi2 = chi2FromStructure(level1.experimental, residuals)[0] / level1.ndata;
    // χ²/n of one fluctuation over ~40 points: 1 ± 0.25 or so.
    expect(chi2).toBeGreaterThan(0.4);
    expect(chi2).toBeLessThan(2);
  });

  it('should name the embedded datasets when a CLOSURE_ name is unknown', async () => {
    const text = closureRuncard('{ fakedata: false }').replace('CLOSURE_XG', 'CLOSURE_XQ');
    const runcardFile = await writeTemporaryRuncard(text);
    const { runcard } = parseRuncard(text, { file: runcardFile });
    await expect(
      prepareFitInputs(runcard, { runcardFile, replicas: [1], cacheFolder: null }),
    ).rejects.toThrow('CLOSURE_XQ: no such embedded dataset; there are CLOSURE_F2P, CLOSURE_F2D');
  });
});
