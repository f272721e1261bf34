import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import {
  fitSummaryFile,
  rebuildFitSummary,
  writeFitSummary,
  type FitSummary,
} from './fit-summary.js';

function processSummary(replicas: number[], overrides: Partial<FitSummary> = {}): FitSummary {
  return {
    fit: 'closure',
    folder: '/fits/closure',
    replicas,
    backend: 'native',
    epochsRun: 1000,
    passed: replicas,
    vetoed: [],
    diverged: [],
    experimentalChi2: replicas.map((replica) => 1 + replica / 100),
    quality: {
      averageChi2PerPoint: 1.1,
      datasetChi2PerPoint: { F2P: 1.2 },
      biasVarianceRatio: 0.9,
    },
    seconds: { setup: 1, training: 10, msPerStep: 10 },
    ...overrides,
  };
}

async function summaryJson(folder: string): Promise<unknown> {
  return JSON.parse(await readFile(join(folder, 'summary.json'), 'utf8'));
}

describe('writeFitSummary', () => {
  it('should keep one process’s summary as the fit’s', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-summary-'));
    const summary = processSummary([1, 2, 3]);
    expect(await writeFitSummary(folder, summary)).toEqual(summary);
    expect(await summaryJson(folder)).toEqual(summary);
    expect(fitSummaryFile(folder, [1, 2, 3, 7])).toBe(
      join(folder, 'summaries', 'replicas_1-3,7.json'),
    );
    expect(await readdir(join(folder, 'summaries'))).toEqual(['replicas_1-3.json']);
  });

  it('should merge the summaries of every process that filled the folder', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-summary-'));
    await writeFitSummary(
      folder,
      processSummary([3, 4], {
        passed: [3],
        vetoed: [],
        diverged: [{ replica: 4, epoch: 17, bestEpoch: null }],
        experimentalChi2: [1.03, Number.NaN],
        epochsRun: 1200,
        backend: 'cpu',
      }),
    );
    const merged = await writeFitSummary(
      folder,
      processSummary([1, 2], { passed: [1], vetoed: [2], epochsRun: 800 }),
    );
    const expected = {
      fit: 'closure',
      folder: '/fits/closure',
      replicas: [1, 2, 3, 4],
      backend: 'native, cpu',
      epochsRun: 1200,
      passed: [1, 3],
      vetoed: [2],
      diverged: [{ replica: 4, epoch: 17, bestEpoch: null }],
      experimentalChi2: [1.01, 1.02, 1.03, null],
      seconds: { setup: 2, training: 20, msPerStep: 10 },
    };
    expect(await summaryJson(folder)).toEqual(expected);
    expect(merged.quality).toBeUndefined();
    expect(merged.experimentalChi2[3]).toBeNaN();
    // A rebuild (postfit's) gives the same.
    await rebuildFitSummary(folder);
    expect(await summaryJson(folder)).toEqual(expected);
  });

  it('should rebuild nothing without process summaries, and name a corrupt one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-summary-'));
    expect(await rebuildFitSummary(folder)).toBeUndefined();
    await writeFitSummary(folder, processSummary([1]));
    const corrupt = fitSummaryFile(folder, [2]);
    await writeFile(corrupt, '{"fit": ');
    await expect(rebuildFitSummary(folder)).rejects.toThrow(InputFileError);
    await expect(rebuildFitSummary(folder)).rejects.toThrow(`${corrupt}: not a fit summary`);
  });
});
