import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathExists } from './path-exists.js';

describe('pathExists', () => {
  it('should tell files and folders that exist from paths that do not', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-exists-'));
    await writeFile(join(folder, 'file.txt'), 'x');
    expect(await pathExists(folder)).toBe(true);
    expect(await pathExists(join(folder, 'file.txt'))).toBe(true);
    expect(await pathExists(join(folder, 'missing.txt'))).toBe(false);
  });
});
