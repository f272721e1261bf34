import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

/** A stack trace's frames as Node prints them. */
const STACK_FRAME = /\n\s+at /;

describe('file-system errors on the command line', () => {
  it('should refuse an --output under a file before any work, without a stack trace', async () => {
    const root = await mkdtemp(join(tmpdir(), 'partonfit-output-'));
    const file = join(root, 'fits');
    await writeFile(file, 'a file where the output folder belongs');
    const result = await run('fit', CLOSURE_RUNCARD, '--output', join(file, 'sub'));
    expect(result.code).toBe(1);
    expect(result.error).toContain(
      `partonfit fit: cannot create the folder ${join(file, 'sub', 'closure')}: a part of the path is a file, not a folder (ENOTDIR)\n`,
    );
    expect(result.error).not.toContain('fitting');
    expect(result.error).not.toMatch(STACK_FRAME);
  });

  it('should show the stack trace with --debug, wherever it stands', async () => {
    const root = await mkdtemp(join(tmpdir(), 'partonfit-output-'));
    await writeFile(join(root, 'fits'), '');
    for (const args of [
      ['--debug', 'fit', CLOSURE_RUNCARD, '--output', join(root, 'fits', 'x')],
      ['fit', CLOSURE_RUNCARD, '--debug', '--output', join(root, 'fits', 'x')],
    ]) {
      const result = await run(...args);
      expect(result.code).toBe(1);
      expect(result.error).toMatch(/\nFileSystemError: cannot create the folder .*\n\s+at /);
      expect(result.error).toContain('partonfit fit: cannot create the folder');
    }
  });

  it('should name the folder postfit cannot read', async () => {
    const root = await mkdtemp(join(tmpdir(), 'partonfit-output-'));
    await writeFile(join(root, 'fit'), '');
    const result = await run('postfit', join(root, 'fit'));
    expect(result.code).toBe(1);
    expect(result.error).toMatch(new RegExp(`^partonfit postfit: .*${join(root, 'fit')}`));
    expect(result.error).not.toMatch(STACK_FRAME);
  });
});
