import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { inputFileRejection } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { runPostfit } from '../postfit/postfit.js';
import { formatExportGrid } from './exportgrid.js';
import { SYNTHETIC_X, syntheticFit, syntheticPdfGrid } from '../testing/synthetic-fit.js';
import { fitReplicaSource, readFitReplicasAtQ0 } from './fit-replicas-at-q0.js';

describe('fitReplicaSource', () => {
  it('should take postfit/ when it is a folder, else nnfit/, and neither from a folder without them', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-source-'));
    expect(await fitReplicaSource(folder)).toBeUndefined();
    await writeFile(join(folder, 'postfit'), 'not a folder');
    expect(await fitReplicaSource(folder)).toBeUndefined();
    await mkdir(join(folder, 'nnfit'));
    expect(await fitReplicaSource(folder)).toBe('nnfit');
    await rm(join(folder, 'postfit'));
    await mkdir(join(folder, 'postfit'));
    expect(await fitReplicaSource(folder)).toBe('postfit');
    await rm(folder, { recursive: true });
  });
});

describe('readFitReplicasAtQ0', () => {
  it("should read every nnfit replica with an exportgrid before postfit, and postfit's after", async () => {
    const folder = await syntheticFit([
      { replica: 1 },
      { replica: 2, positive: false },
      { replica: 3, without: ['exportgrid'] },
      { replica: 4 },
    ]);
    const before = await readFitReplicasAtQ0(folder);
    expect(before.source).toBe('nnfit');
    expect(before.replicaFolders).toEqual([1, 2, 4]);
    expect(before.notes).toEqual(['replica 3 of nnfit/ without an exportgrid']);
    expect(before.q0).toBeCloseTo(1.65, 14);
    expect(before.xGrid).toEqual(SYNTHETIC_X);
    expect(before.xf.subarray(2 * 42, 3 * 42)).toEqual(syntheticPdfGrid(4));
    await runPostfit(folder, { thresholds: { integrability: 100 } });
    const after = await readFitReplicasAtQ0(folder);
    expect(after.source).toBe('postfit');
    // postfit kept replicas 1 and 4 (2 failed positivity) as its members 1 and 2
    expect([after.replicas, after.fit]).toEqual([2, 'synthetic']);
    expect(after.xf.subarray(42)).toEqual(syntheticPdfGrid(4));
    await rm(join(folder, '..'), { recursive: true });
  });

  it('should name the folder that is not a fit, and a postfit/ or nnfit/ without replicas', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'partonfit-not-a-fit-'));
    const notFit = await inputFileRejection(readFitReplicasAtQ0(empty));
    expect(notFit.file).toBe(empty);
    expect(notFit.problem).toMatch(/^not a fit folder: it holds neither nnfit\/ nor postfit\//);
    await mkdir(join(empty, 'nnfit', 'replica_1'), { recursive: true });
    const noneFinished = await inputFileRejection(readFitReplicasAtQ0(empty));
    expect(noneFinished.file).toBe(join(empty, 'nnfit'));
    await mkdir(join(empty, 'postfit', 'replica_0'), { recursive: true });
    const noneKept = await inputFileRejection(readFitReplicasAtQ0(empty));
    expect(noneKept.message).toBe(
      `${join(empty, 'postfit')}: no replica after postfit: no replica_<n>/${basename(empty)}.exportgrid with n ≥ 1; run partonfit postfit again`,
    );
    await rm(empty, { recursive: true });
  });

  it('should refuse an exportgrid that does not read, or of another Q0, naming the file', async () => {
    const folder = await syntheticFit([{ replica: 1 }, { replica: 2 }]);
    const second = join(folder, 'nnfit', 'replica_2', 'synthetic.exportgrid');
    const text = await readFile(second, 'utf8');
    // a diverged replica has no exportgrid and is skipped; a damaged one is an error
    await writeFile(second, text.replace(/^- \[3\.0,/m, '- [three,'));
    const garbled = await inputFileRejection(readFitReplicasAtQ0(folder));
    expect([garbled.file, garbled.key, garbled.problem]).toEqual([
      second,
      'pdfgrid',
      "'three' is not a finite number",
    ]);
    await writeFile(
      second,
      formatExportGrid({ replica: 2, q20: 4, xGrid: SYNTHETIC_X, pdfGrid: syntheticPdfGrid(2) }),
    );
    const otherQ0 = await inputFileRejection(readFitReplicasAtQ0(folder));
    const first = join(folder, 'nnfit', 'replica_1', 'synthetic.exportgrid');
    expect(otherQ0.message).toBe(`${second}: q20: 4, but ${first} has 2.7225`);
    await rm(join(folder, '..'), { recursive: true });
  });

  it("should refuse a postfit/ whose replica has lost its exportgrid, naming the file, rather than read nnfit's", async () => {
    const folder = await syntheticFit([{ replica: 1 }, { replica: 2 }]);
    await runPostfit(folder, { thresholds: { integrability: 100 } });
    const kept = join(folder, 'postfit', 'replica_2', 'synthetic.exportgrid');
    await rm(kept);
    const incomplete = await inputFileRejection(readFitReplicasAtQ0(folder));
    expect(incomplete.message).toBe(
      `${kept}: missing: postfit/ is incomplete; run partonfit postfit again`,
    );
    await rm(join(folder, '..'), { recursive: true });
  });
});
