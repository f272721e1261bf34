import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/closure-mhou.yml', import.meta.url));

describe('examples/closure-mhou.yml: the embedded closure fit with a 7-point theory covariance', () => {
  it('fits with C + S, reports χ²/n with and without S, and the report draws S’s correlations', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-closure-mhou-'));
    const runcard = join(folder, 'closure-mhou.yml');
    const text = await readFile(EXAMPLE, 'utf8');
    await writeFile(runcard, text.replace('epochs: 8000', 'epochs: 300'));
    const output = join(folder, 'fits');
    const fit = await fitOnCpu(runcard, '1-2', output);
    expect(fit.error).not.toContain('partonfit fit:');
    expect(fit.code).toBe(0);
    expect(fit.out).toContain('theory covariance: 7 point, in the χ² and pseudodata');
    const summary = JSON.parse(
      await readFile(join(output, 'closure-mhou', 'summary.json'), 'utf8'),
    ) as { quality: { averageChi2PerPoint: number; averageChi2PerPointWithoutTheory: number } };
    expect(summary.quality.averageChi2PerPointWithoutTheory).toBeGreaterThan(
      summary.quality.averageChi2PerPoint,
    );
    const report = await run('report', join(output, 'closure-mhou'), '--backend', 'cpu');
    expect(report.code).toBe(0);
    const json = JSON.parse(
      await readFile(join(output, 'closure-mhou', 'report', 'report.json'), 'utf8'),
    ) as { sections: { id: string; figures: { id: string }[] }[] };
    const section = json.sections.find((entry) => entry.id === 'theory-covariance');
    expect(section?.figures.map((figure) => figure.id)).toEqual(['theory-correlation']);
  });
});
