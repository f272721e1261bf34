import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseRuncard } from '@partonfit/core';
import { writeClosureRuncard } from '@partonfit/testing';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

describe('partonfit iterate of the embedded closure fit', () => {
  let folder: string;
  let cache: string;

  beforeAll(async () => {
    // the evolution operator's cache goes to a temporary folder, never the user's
    cache = await mkdtemp(join(tmpdir(), 'partonfit-iterate-cache-'));
    vi.stubEnv('XDG_CACHE_HOME', cache);
    const written = await writeClosureRuncard('closure', {
      epochs: 40,
      chargedLeptonsOnly: true,
      passEveryReplica: true,
    });
    folder = written.folder;
    const fitted = await fitOnCpu(written.runcard, '1-3', folder);
    if (fitted.code !== 0) throw new Error(`the fit failed: ${fitted.error}`);
  }, 300_000);

  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(folder, { recursive: true, force: true });
    await rm(cache, { recursive: true, force: true });
  });

  it('should write, after postfit and evolve, a runcard that check accepts and that fits with the fit as t0', async () => {
    const fit = join(folder, 'closure');
    const next = join(folder, 'closure_iterated.yml');
    const postfit = await run('postfit', fit, '--integrability-threshold', '100');
    expect(postfit.code).toBe(0);
    const withoutSet = await run('iterate', fit, '--output', next);
    expect(withoutSet.error).toContain(`run \`partonfit evolve ${fit}\` first`);
    const qGrid = join(folder, 'q-grid.yaml');
    await writeFile(qGrid, `${JSON.stringify([Math.SQRT2, 2, 4.5, 4.5, 10, 100])}\n`);
    expect((await run('evolve', fit, '--q-grid', qGrid)).code).toBe(0);

    const iterated = await run('iterate', fit, '--output', next);
    expect(iterated.error).toBe('');
    expect(iterated.code).toBe(0);
    expect(iterated.out).toMatch(/^closure: 3 replica\(s\) from postfit\/ at Q0 = 1\.414 GeV/);
    const { runcard } = parseRuncard(await readFile(next, 'utf8'));
    expect(runcard.datacuts.t0pdfset).toBe('closure');
    expect(runcard.data_paths.lhapdf).toBe('closure');
    for (const { smallx, largex } of runcard.fitting.basis) {
      expect(smallx[0]).toBeLessThanOrEqual(smallx[1]);
      expect(largex?.[0]).toBeGreaterThanOrEqual(0);
    }
    expect((await run('check', next)).code).toBe(0);

    const refit = await fitOnCpu(next, '1', folder);
    expect(refit.code).toBe(0);
    // the covariance of the next fit is the t0 one, from this fit's evolved set
    expect(refit.error).toContain('building the t0 covariance');
    const copied = await readFile(join(folder, 'closure_iterated', 'runcard.yml'), 'utf8');
    expect(copied).toContain('datacuts:\n  t0pdfset: closure\n');
  }, 300_000);
});
