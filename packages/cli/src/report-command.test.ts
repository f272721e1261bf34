import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { syntheticFit } from '@partonfit/fit-folder/testing';
import { trialDocument, triesJson, type FoldOutcome } from '@partonfit/hyperopt';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

const SCAN_RUNCARD = fileURLToPath(new URL('../../../examples/hyperopt.yml', import.meta.url));

/** A fold of a test trial whose held-out loss is `loss`. */
function fold(loss: number): FoldOutcome {
  const metrics = { chi2: loss, phi: 0.1, logp: loss, chi2exp: 1.1 };
  return {
    validationLosses: [loss],
    experimentalLosses: [loss],
    penalties: {},
    heldOut: metrics,
    fitted: metrics,
  };
}

/**
 * A scan folder `<tmp>/hyperopt/` of `partonfit hyperopt examples/hyperopt.yml` with three ok
 * trials of 3 folds: trial t has one layer of 10 + 5t units, the Adam learning rate 10^−(t+2)
 * and fold losses (2, 3, 4)/(t + 1); `tries` replaces its `tries.json`'s text.
 */
async function scanFolder(tries?: string): Promise<string> {
  const folder = join(await mkdtemp(join(tmpdir(), 'partonfit-report-scan-')), 'hyperopt');
  await mkdir(join(folder, 'hyperopt'), { recursive: true });
  await copyFile(SCAN_RUNCARD, join(folder, 'runcard.yml'));
  const documents = [0, 1, 2].map((tid) => {
    const losses = [2, 3, 4].map((loss) => loss / (tid + 1));
    return trialDocument({
      tid,
      point: {},
      labels: [],
      spaceValues: {
        nodes_per_layer: [10 + 5 * tid, 8],
        activation_per_layer: 'tanh',
        optimizer: {
          optimizer_name: 'Adam',
          learning_rate: [1e-2, 1e-3, 1e-4][tid],
          clipnorm: 1e-5,
        },
        epochs: 1000,
      },
      folds: losses.map(fold),
      outcome: { status: 'ok', loss: 3 / (tid + 1), foldLosses: losses, thresholdFold: undefined },
      bookTime: new Date(0),
      refreshTime: new Date(1000),
      batch: 0,
      seconds: 1,
    });
  });
  await writeFile(join(folder, 'hyperopt', 'tries.json'), tries ?? triesJson(documents));
  return folder;
}

describe('partonfit report', () => {
  it('should report what a fit with unreadable weights and no postfit can show', async () => {
    const folder = await syntheticFit([{ replica: 1 }, { replica: 2 }]);
    await copyFile(CLOSURE_RUNCARD, join(folder, 'runcard.yml'));
    const output = join(folder, 'out');
    const result = await run('report', folder, '--output', output, '--backend', 'cpu');
    expect(result.error).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^not shown: .*summary\.json: missing$/m);
    expect(result.out).toMatch(/^not shown: no .*postfit\.json: the report shows every fitted/m);
    expect(result.out).toMatch(/^not shown: χ² of .*synthetic: .*weights\.h5/m);
    expect(result.out).toContain('report of synthetic: summary, pdfs, closure; 4 figures\n');
    expect((await readdir(join(output, 'figures'))).sort()).toEqual([
      'pdf-evolution-linearx.png',
      'pdf-evolution-linearx.svg',
      'pdf-evolution-logx.png',
      'pdf-evolution-logx.svg',
      'pdf-flavour-linearx.png',
      'pdf-flavour-linearx.svg',
      'pdf-flavour-logx.png',
      'pdf-flavour-logx.svg',
    ]);
  });

  it('should fail with the file named for a folder without a runcard', async () => {
    const folder = await syntheticFit([{ replica: 1 }]);
    const result = await run('report', folder, '--backend', 'cpu');
    expect(result.code).toBe(1);
    expect(result.error).toContain(join(folder, 'runcard.yml'));
  });

  it('should write a scan folder’s report without a backend, best trial first', async () => {
    const folder = await scanFolder();
    const result = await run('report', folder);
    expect(result.error).toBe('');
    expect(result.code).toBe(0);
    const output = join(folder, 'report');
    expect(result.out).toBe(
      `scan report of hyperopt: scan-summary, scan-settings, scan-folds, scan-best, scan-history; 3 figures\n${join(output, 'index.html')}\n`,
    );
    expect((await readdir(join(output, 'figures'))).sort()).toEqual([
      'fold-losses.png',
      'fold-losses.svg',
      'loss-vs-settings.png',
      'loss-vs-settings.svg',
      'trial-losses.png',
      'trial-losses.svg',
    ]);
    const report = JSON.parse(await readFile(join(output, 'report.json'), 'utf8')) as {
      sections: { id: string; tables: { id: string; rows: unknown[][] }[] }[];
    };
    const best = report.sections.find((section) => section.id === 'scan-best')?.tables[0];
    // rank, trial, loss, the three folds, units of layer 1, learning rate.
    expect(best?.rows).toEqual([
      [1, 2, 1, 2 / 3, 1, 4 / 3, 20, 1e-4],
      [2, 1, 1.5, 1, 1.5, 2, 15, 1e-3],
      [3, 0, 3, 2, 3, 4, 10, 1e-2],
    ]);
  });

  it('should refuse fit-only options for a scan folder', async () => {
    const folder = await scanFolder();
    const result = await run('report', folder, '--compare', folder, '--replica-curves');
    expect(result.code).toBe(2);
    expect(result.error).toContain(
      `--compare and --replica-curves: for fit reports; ${folder} is a hyperparameter scan`,
    );
    const scales = await run('report', folder, '--q', '100');
    expect(scales.code).toBe(2);
    expect(scales.error).toContain(`--q: for fit reports; ${folder} is a hyperparameter scan`);
  });

  it('should fail naming a tries.json that is not JSON, and a scan without finished trials', async () => {
    const broken = await scanFolder('[{"tid": 0, "state": 2');
    const notJson = await run('report', broken);
    expect(notJson.code).toBe(1);
    expect(notJson.error).toContain(`${join(broken, 'hyperopt', 'tries.json')}: not JSON`);
    const empty = await scanFolder('[]\n');
    const none = await run('report', empty);
    expect(none.code).toBe(1);
    expect(none.error).toContain(
      `${join(empty, 'hyperopt', 'tries.json')}: no finished trial among its 0: nothing to report yet`,
    );
    expect(await readdir(empty)).not.toContain('report');
  });

  it('should be a usage error without exactly one fit folder', async () => {
    expect((await run('report')).code).toBe(2);
    expect((await run('report', 'a', 'b')).code).toBe(2);
    expect((await run('report', 'a', '--backend', 'gpu')).code).toBe(2);
  });
});
