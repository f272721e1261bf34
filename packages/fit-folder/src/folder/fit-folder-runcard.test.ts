import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError, parseRuncard, RuncardError } from '@partonfit/core';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { checkFitFolderRuncard, clearFitFolder } from './fit-folder-runcard.js';

async function fitFolderWith(runcardText: string | undefined): Promise<string> {
  const folder = join(await mkdtemp(join(tmpdir(), 'partonfit-owner-')), 'closure');
  await mkdir(join(folder, 'nnfit', 'replica_1'), { recursive: true });
  if (runcardText !== undefined) await writeFile(join(folder, 'runcard.yml'), runcardText);
  return folder;
}

describe('checkFitFolderRuncard', () => {
  it('should accept a free folder and one of the same settings, and refuse another runcard', async () => {
    const text = await readFile(CLOSURE_RUNCARD, 'utf8');
    const { runcard } = parseRuncard(text);
    await expect(
      checkFitFolderRuncard(join(tmpdir(), 'partonfit-absent-folder'), runcard),
    ).resolves.toBeUndefined();
    await expect(checkFitFolderRuncard(await fitFolderWith(undefined), runcard)).resolves.toBe(
      undefined,
    );
    const same = await fitFolderWith(`# a comment\n${text}`);
    await expect(checkFitFolderRuncard(same, runcard)).resolves.toBeUndefined();
    const other = await fitFolderWith(text.replace('epochs: 8000', 'epochs: 300'));
    const refusal = checkFitFolderRuncard(other, runcard);
    await expect(refusal).rejects.toThrow(InputFileError);
    await expect(checkFitFolderRuncard(other, runcard)).rejects.toThrow(
      `${join(other, 'runcard.yml')}: parameters.epochs: the fit folder holds a fit of another runcard (300 there, 8000 in this one)`,
    );
    const broken = await fitFolderWith('parameters: [');
    await expect(checkFitFolderRuncard(broken, runcard)).rejects.toThrow(RuncardError);
  });
});

describe('clearFitFolder', () => {
  it('should delete what a fit wrote and keep everything else', async () => {
    const folder = await fitFolderWith('description: old\n');
    await mkdir(join(folder, 'postfit'));
    await mkdir(join(folder, 'tables'));
    const files = [
      'summary.json',
      'checkpoint_replicas_1-4.h5',
      '.checkpoint_replicas_1-4.h5.0123456789ab.tmp',
      'my-notes.md',
    ];
    for (const name of files) await writeFile(join(folder, name), name);
    const removed = await clearFitFolder(folder);
    expect(removed.sort()).toEqual(
      [
        '.checkpoint_replicas_1-4.h5.0123456789ab.tmp',
        'checkpoint_replicas_1-4.h5',
        'nnfit',
        'postfit',
        'runcard.yml',
        'summary.json',
        'tables',
      ].sort(),
    );
    expect(await readdir(folder)).toEqual(['my-notes.md']);
    expect(await clearFitFolder(join(folder, 'absent'))).toEqual([]);
  });
});
