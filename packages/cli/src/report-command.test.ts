import { copyFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticFit } from '@partonfit/fit-folder/testing';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

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
      'pdf-evolution-linearx.svg',
      'pdf-evolution-logx.svg',
      'pdf-flavour-linearx.svg',
      'pdf-flavour-logx.svg',
    ]);
  });

  it('should fail with the file named for a folder without a runcard', async () => {
    const folder = await syntheticFit([{ replica: 1 }]);
    const result = await run('report', folder, '--backend', 'cpu');
    expect(result.code).toBe(1);
    expect(result.error).toContain(join(folder, 'runcard.yml'));
  });

  it('should be a usage error without exactly one fit folder', async () => {
    expect((await run('report')).code).toBe(2);
    expect((await run('report', 'a', 'b')).code).toBe(2);
    expect((await run('report', 'a', '--backend', 'gpu')).code).toBe(2);
  });
});
