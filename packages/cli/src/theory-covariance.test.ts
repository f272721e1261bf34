import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMatrix } from '@partonfit/core';
import {
  formatCovarianceTable,
  parseCovarianceTable,
  scaleCombinationsOf,
} from '@partonfit/fktables';
import {
  writeScaleVariedTheories,
  type ScaleVariedTheories,
} from '@partonfit/testing/scale-varied-theories';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

let theories: ScaleVariedTheories;
beforeAll(async () => {
  theories = await writeScaleVariedTheories(scaleCombinationsOf(['7 point']));
});
afterAll(async () => theories.remove());

/** Writes the fixture's runcard with a 7-point theory covariance and returns its path. */
async function runcardFile(name: string, ids = theories.theoryIds): Promise<string> {
  const file = join(theories.folder, `${name}.yml`);
  await writeFile(
    file,
    theories.runcard(`theorycovmatconfig:
  point_prescriptions: ['7 point']
  theoryids: [${ids.join(', ')}]
  pdf: toyLH
  use_thcovmat_in_fitting: true
  use_thcovmat_in_sampling: true
`),
  );
  return file;
}

describe('a fit with a theory covariance from scale-varied theory folders', () => {
  it('check shows the prescription, the theories, the tables and the size of S', async () => {
    const result = await run('check', await runcardFile('mhou'));
    expect(result.error).toBe('');
    expect(result.out).toContain('theory cov.:   7 point, in the χ² and the pseudodata');
    expect(result.out).toContain(
      'scales:      9000 (1, 1), 9001 (2, 1), 9002 (0.5, 1), 9003 (1, 2), 9004 (1, 0.5), 9005 (2, 2), 9006 (0.5, 0.5)',
    );
    expect(result.out).toContain('14 FK-table sets (2 datasets × 7 theories), with the PDF toyLH');
    expect(result.out).toMatch(/S: {11}7 × 7 on the fitted points; √S_ii is \d/);
  });

  it('check names a user covariance with its factor beside the prescription', async () => {
    const points = [
      ...[0, 1, 2, 3].map((id) => ({ group: 'DIS NC', dataset: 'TOY_NC_F2', id })),
      ...[0, 1, 2].map((id) => ({ group: 'DIS CC', dataset: 'TOY_CC_F2', id })),
    ];
    const identity = createMatrix(7, 7);
    for (let i = 0; i < 7; i++) identity.data[i * 8] = 1;
    const user = join(theories.folder, 'user.csv');
    await writeFile(user, formatCovarianceTable({ points, covariance: identity }));
    const file = await runcardFile('user');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace(
        'theorycovmatconfig:\n',
        `theorycovmatconfig:\n  user_covmat_path: ${user}\n  mult_factor: 2.5\n`,
      ),
    );
    const result = await run('check', file);
    expect(result.error).toBe('');
    expect(result.out).toContain(
      `theory cov.:   7 point + user covariance ${user} × 2.5, in the χ² and the pseudodata`,
    );
  });

  it('check refuses theoryids in another order than the scales of their tables', async () => {
    const [central, up, down, ...rest] = theories.theoryIds;
    const result = await run('check', await runcardFile('swapped', [central, down, up, ...rest]));
    expect(result.code).not.toBe(0);
    expect(result.error).toContain(
      'theorycovmatconfig.theoryids[1]: theory 9002 has the scales (k_F, k_R) = (0.5, 1)',
    );
    expect(result.error).toContain('but position 1 needs (2, 1)');
  });

  it('check names the theories whose tables do not say their own scales', async () => {
    const copied = await writeScaleVariedTheories(scaleCombinationsOf(['3f point']), {
      tableCards: 'central',
    });
    try {
      const file = join(copied.folder, 'copied.yml');
      await writeFile(
        file,
        copied.runcard(
          `theorycovmatconfig:\n  point_prescriptions: ['3f point']\n  theoryids: [9000, 9001, 9002]\n  pdf: toyLH\n`,
        ),
      );
      const result = await run('check', file);
      expect(result.error).toBe('');
      expect(result.out).toContain(
        "    unchecked:   theory 9001, 9002: no FK table names its own theory's XIF and XIR, so its place in theoryids is taken as given",
      );
    } finally {
      await copied.remove();
    }
  });

  it('check names the embedded datasets at Q0, which have no scale variation', async () => {
    const example = fileURLToPath(new URL('../../../examples/closure-mhou.yml', import.meta.url));
    const result = await run('check', example);
    expect(result.error).toBe('');
    expect(result.out).toContain(
      '    no shifts:   CLOSURE_F2P, CLOSURE_F2D, CLOSURE_NU_F2, CLOSURE_NU_XF3, CLOSURE_NUB_F2, CLOSURE_NUB_XF3, CLOSURE_NU_DIMUON, CLOSURE_NUB_DIMUON, CLOSURE_F2C, CLOSURE_XG (embedded data at Q0, the same at every scale: S is zero on their points)',
    );
    expect(result.out).toContain('S:           250 × 250 on the fitted points; √S_ii is 0.0 % to');
  });

  it('check names the missing theories and the command that gets them', async () => {
    const folder = join(theories.theories, 'theory_9003');
    await rename(folder, `${folder}.away`);
    try {
      const result = await run('check', await runcardFile('missing'));
      expect(result.code).not.toBe(0);
      expect(result.error).toContain('1 of the 7 theories are missing: 9003');
      expect(result.error).toContain('`partonfit get theory 9003`');
    } finally {
      await rename(`${folder}.away`, folder);
    }
  });

  it('fits with C + S, reports χ²/n with and without S, and keeps S in the fit folder', async () => {
    const output = join(theories.folder, 'fits');
    const result = await fitOnCpu(await runcardFile('mhou'), '1-2', output);
    expect(result.error).not.toContain('partonfit fit:');
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      `theory covariance: 7 point, in the χ² and pseudodata; S in ${join('tables', 'theory_covariance.csv')}`,
    );
    expect(result.out).toContain('  χ² covariance: C + S, C = experimental covariance\n');
    expect(result.out).toMatch(
      /χ²\/n of the replica average: \d+\.\d{3} with C \+ S, \d+\.\d{3} with C alone\n {4}per dataset, with its own block of C \+ S:\n {6}TOY_NC_F2 +\d+\.\d{3}\n {6}TOY_CC_F2 +\d+\.\d{3}\n/,
    );
    const summary = JSON.parse(await readFile(join(output, 'mhou', 'summary.json'), 'utf8')) as {
      theoryCovariance: unknown;
      quality: { averageChi2PerPoint: number; averageChi2PerPointWithoutTheory: number };
    };
    expect(summary.theoryCovariance).toEqual({
      prescriptions: ['7 point'],
      inFitting: true,
      inSampling: true,
      table: join('tables', 'theory_covariance.csv'),
    });
    const { averageChi2PerPoint, averageChi2PerPointWithoutTheory } = summary.quality;
    expect(averageChi2PerPointWithoutTheory).toBeGreaterThan(averageChi2PerPoint);
    const file = join(output, 'mhou', 'tables', 'theory_covariance.csv');
    const table = parseCovarianceTable(await readFile(file, 'utf8'), file);
    expect(table.points.map((point) => `${point.dataset}:${point.id}`)).toEqual([
      'TOY_NC_F2:0',
      'TOY_NC_F2:1',
      'TOY_NC_F2:2',
      'TOY_NC_F2:3',
      'TOY_CC_F2:0',
      'TOY_CC_F2:1',
      'TOY_CC_F2:2',
    ]);
    expect(table.covariance.data[0]).toBeGreaterThan(0);
  });

  it('refuses a prescription with the wrong number of theories before writing anything', async () => {
    const output = join(theories.folder, 'refused');
    const result = await fitOnCpu(
      await runcardFile('short', theories.theoryIds.slice(0, 3)),
      '1',
      output,
    );
    expect(result.code).not.toBe(0);
    expect(result.error).toMatch(/theorycovmatconfig\.theoryids: 7 point needs 7 theories/);
    // the writability check made the fit folder; nothing is written in it
    expect(await readdir(join(output, 'short'))).toEqual([]);
  });
});
