import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticFit } from '@partonfit/fit-folder/testing';
import { writeClosureRuncard } from '@partonfit/testing';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

/** Replicas 1–5 of a synthetic fit: 2 fails positivity, 4 has an integrability number of 0.7. */
function replicas() {
  return [
    { replica: 1 },
    { replica: 2, positive: false },
    { replica: 3 },
    { replica: 4, integrability: [0.01, 0.7, 0, 0.1, 0.01] },
    { replica: 5 },
  ];
}

interface PredictJson {
  replicas: { source: string; members: number[] };
  predictions: number[];
}

async function predictJson(...args: string[]): Promise<PredictJson> {
  const result = await run('predict', '--json', ...args);
  expect(result.error).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.out) as PredictJson;
}

describe('partonfit postfit', () => {
  it('should select the replicas and report what it kept and discarded', async () => {
    const fit = await syntheticFit(replicas());
    const result = await run('postfit', fit);
    expect(result.error).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('5 total replicas found, 5 valid\n');
    expect(result.out).toContain('discarded replica 2: Positivity\n');
    expect(result.out).toContain('replica_3: nnfit/replica_5\n');
    expect(result.out).toContain(
      'postfit: kept 3 replica(s), discarded 2; replica 0 is their average\n',
    );
    const loose = await run('postfit', fit, '--integrability-threshold', '0.8', '--nrep', '2');
    expect(loose.out).toContain('replica_2: nnfit/replica_3\n');
    expect(loose.out).toContain('kept 2 replica(s)');
    const atLeast = await run(
      'postfit',
      fit,
      '--nrep',
      '2',
      '--at-least-nrep',
      '--chi2-threshold',
      '5',
    );
    expect(atLeast.out).toContain('kept 3 replica(s)');
  });

  it('should explain wrong usage and a fit where nothing passes', async () => {
    const fit = await syntheticFit(replicas());
    expect(await run('postfit')).toMatchObject({ code: 2 });
    expect((await run('postfit', fit, '--nrep', '1.5')).error).toContain(
      "--nrep: expected a positive integer, got '1.5'",
    );
    expect((await run('postfit', fit, '--chi2-threshold', 'x')).error).toContain(
      "--chi2-threshold: expected a positive number, got 'x'",
    );
    expect((await run('postfit', fit, '--at-least-nrep')).error).toContain(
      '--at-least-nrep needs --nrep',
    );
    const many = await run('postfit', fit, '--nrep', '9');
    expect(many.code).toBe(1);
    expect(many.error).toBe(
      'partonfit postfit: nrep: 3 of 5 valid replicas pass the vetoes, 9 were asked for\n',
    );
  });

  it('should make predict --pdf <fit> use the selected replicas', async () => {
    const { folder, runcard } = await writeClosureRuncard('tiny', {
      epochs: 20,
      chargedLeptonsOnly: true,
    });
    const fitted = await fitOnCpu(runcard, '1-2', folder);
    expect(fitted.code).toBe(0);
    const fit = join(folder, 'tiny');
    const nnfit = await predictJson('--pdf', fit, '--dataset', 'CLOSURE_F2P', '--member', '2');
    expect(nnfit.replicas).toEqual({ source: 'nnfit', members: [1, 2] });
    // A 20-epoch fit passes no veto: let replica 2 pass positivity and integrability.
    for (const replica of [1, 2]) {
      const json = join(fit, 'nnfit', `replica_${replica}`, 'tiny.json');
      const summary = JSON.parse(await readFile(json, 'utf8')) as Record<string, unknown>;
      summary.pos_state = replica === 2 ? 'POS_PASS' : 'POS_VETO';
      summary.integrability = [0, 0, 0, 0, 0];
      await writeFile(json, JSON.stringify(summary));
    }
    expect((await run('postfit', fit)).code).toBe(0);
    const postfit = await predictJson('--pdf', fit, '--dataset', 'CLOSURE_F2P', '--member', '1');
    expect(postfit.replicas).toEqual({ source: 'postfit', members: [1] });
    expect(postfit.predictions).toEqual(nnfit.predictions);
  });
});
