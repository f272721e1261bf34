import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { writeClosureRuncard } from '@partonfit/testing';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

/** The embedded closure runcard cut to a few datasets and epochs, in a fresh folder. */
const shortRuncard = () => writeClosureRuncard('short', { epochs: 40, chargedLeptonsOnly: true });

interface ExportGrid {
  labels: string[];
  pdfgrid: number[][];
  replica: number;
  q20: number;
  xgrid: number[];
}

async function exportGrid(output: string, replica: number): Promise<ExportGrid> {
  const file = join(output, 'short', 'nnfit', `replica_${replica}`, 'short.exportgrid');
  return parse(await readFile(file, 'utf8')) as ExportGrid;
}

describe('partonfit fit', () => {
  it('should write the fit folder, and replicas fitted together equal replicas fitted alone', async () => {
    const { folder, runcard } = await shortRuncard();
    const together = join(folder, 'together');
    const result = await fitOnCpu(runcard, '1-4', together);
    expect(result.error).not.toContain('partonfit fit:');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/fit short: 4 replica\(s\) on cpu, 40 epochs/);
    expect(result.out).toMatch(/closure test: bias\/variance = \d/);
    expect(result.out).toContain('  χ² covariance: C = experimental covariance\n');
    expect(result.out).toContain('    per dataset, with its own block of C:\n');
    const summary = JSON.parse(await readFile(join(together, 'short', 'summary.json'), 'utf8')) as {
      replicas: number[];
    };
    expect(summary.replicas).toEqual([1, 2, 3, 4]);
    const grids = await Promise.all([1, 2, 3, 4].map((replica) => exportGrid(together, replica)));
    expect(grids[0].labels[6]).toBe('GLUON');
    expect(grids[0].pdfgrid).toHaveLength(196);
    expect(grids[1].replica).toBe(2);
    expect(grids[0].q20).toBeCloseTo(2, 12);
    for (const replica of [1, 2, 3, 4]) {
      const alone = join(folder, `alone-${replica}`);
      const single = await fitOnCpu(runcard, `${replica}`, alone);
      expect(single.code).toBe(0);
      const grid = await exportGrid(alone, replica);
      grid.pdfgrid.forEach((row, i) => {
        row.forEach((value, f) => {
          expect(value).toBeCloseTo(grids[replica - 1].pdfgrid[i][f], 4);
        });
      });
    }
  });

  it('should write identical exportgrids when the same command runs twice', async () => {
    const { folder, runcard } = await shortRuncard();
    const texts = [];
    for (const output of ['first', 'second']) {
      const result = await run('fit', runcard, '--replicas', '2', '--output', join(folder, output));
      expect(result.code).toBe(0);
      texts.push(
        await readFile(
          join(folder, output, 'short', 'nnfit', 'replica_2', 'short.exportgrid'),
          'utf8',
        ),
      );
    }
    expect(texts[1]).toBe(texts[0]);
  });

  it('should report runcard and argument errors before any work', async () => {
    const { folder, runcard } = await shortRuncard();
    const broken = join(folder, 'broken.yml');
    await writeFile(broken, (await readFile(runcard, 'utf8')).replace('epochs: 40', 'epochs: -4'));
    const invalid = await run('fit', broken, '--output', folder);
    expect(invalid.code).toBe(1);
    expect(invalid.error).toContain('parameters.epochs: expected a positive integer');
    expect((await run('fit', runcard, '--replicas', '0')).error).toContain(
      "--replicas: '0' is not a replica",
    );
    expect((await run('fit', runcard, '--backend', 'gpu')).code).toBe(2);
    expect((await run('fit')).code).toBe(2);
  });
});
