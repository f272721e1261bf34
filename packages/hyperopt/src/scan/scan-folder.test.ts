import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import {
  batchFile,
  claimBatch,
  finishedDocuments,
  releaseUnfinishedBatches,
  scanFolder,
} from './scan-folder.js';

async function folderWithBatches() {
  const folder = scanFolder(await mkdtemp(join(tmpdir(), 'partonfit-scan-folder-')), 'scan');
  await mkdir(folder.batches, { recursive: true });
  return folder;
}

describe("a scan folder's batches", () => {
  it('are claimed once, and a claim stays beside its finished trials', async () => {
    const folder = await folderWithBatches();
    expect(await claimBatch(folder, 0, 'SLURM job 7 task 1')).toBe(true);
    expect(await claimBatch(folder, 0, 'SLURM job 7 task 2')).toBe(false);
    await writeFile(batchFile(folder, 0), '[]\n');
    expect(await claimBatch(folder, 1, 'SLURM job 7 task 1')).toBe(true);
    expect(await claimBatch(folder, 2, 'SLURM job 7 task 2')).toBe(true);
    // a requeued task 1 drops its own unfinished claims, not finished ones nor task 2's
    expect(await releaseUnfinishedBatches(folder, 'SLURM job 7 task 1')).toEqual([1]);
    expect((await readdir(folder.batches)).sort()).toEqual([
      'batch_0000.claim',
      'batch_0000.json',
      'batch_0002.claim',
    ]);
    // a resumed scan (one process) drops every unfinished claim
    expect(await releaseUnfinishedBatches(folder)).toEqual([2]);
    expect(await claimBatch(folder, 0, 'pid 1')).toBe(false);
  });

  it('name the file and trial of a damaged batch', async () => {
    const folder = await folderWithBatches();
    await writeFile(batchFile(folder, 0), '[{"tid": 0, "state": 2}]\n');
    const reading = finishedDocuments(folder);
    await expect(reading).rejects.toThrow(InputFileError);
    await expect(reading).rejects.toThrow(/batch_0000\.json.*\[0\].*expected a trial document/);
  });
});
