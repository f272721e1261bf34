import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FLAVOUR_BASIS } from '@partonfit/core';
import { readExportGrid } from '@partonfit/fit-folder';
import { loadLhapdfMember, loadLhapdfSet, readHdf5File } from '@partonfit/io';
import { writeClosureRuncard } from '@partonfit/testing';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

/** A few scales of the embedded theory: four flavours from Q0 = √2 GeV, bottom at 4.5 GeV. */
const Q_GRID = [Math.SQRT2, 2, 4.5, 4.5, 10, 100];

describe('partonfit evolve of the embedded closure fit', () => {
  let folder: string;
  let fit: string;
  let qGrid: string;
  let cache: string;

  beforeAll(async () => {
    // the operator cache goes to a temporary folder, never the user's
    cache = await mkdtemp(join(tmpdir(), 'partonfit-evolve-cache-'));
    vi.stubEnv('XDG_CACHE_HOME', cache);
    const written = await writeClosureRuncard('tiny', { epochs: 30, chargedLeptonsOnly: true });
    folder = written.folder;
    const fitted = await fitOnCpu(written.runcard, '1-2', folder);
    if (fitted.code !== 0) throw new Error(`the fit failed: ${fitted.error}`);
    fit = join(folder, 'tiny');
    qGrid = join(folder, 'q-grid.yaml');
    await writeFile(qGrid, `${JSON.stringify(Q_GRID)}\n`);
  }, 300_000);

  /** The operators in the cache folder (the fit's inputs are cached there too). */
  async function operatorFiles(): Promise<string[]> {
    const files = await readdir(join(cache, 'partonfit'));
    return files.filter((name) => name.startsWith('evolution-operator-'));
  }

  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(folder, { recursive: true, force: true });
    await rm(cache, { recursive: true, force: true });
  });

  it("should evolve with the runcard's embedded LO theory and no other file, the set equal to the exportgrids at Q0", async () => {
    const result = await run('evolve', fit, '--q-grid', qGrid);
    // off a terminal, the build's progress is a plain line every 10 scales and at the last
    expect(result.error).toBe('building the evolution operator: scale 6/6\n');
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      `evolving 2 replica(s) of tiny (nnfit) from Q0 = ${Math.SQRT2} GeV to 100 GeV at LO (EXA), 6 scales`,
    );
    expect(result.out).toMatch(/built the evolution operator in [\d.]+ s, cached in /);
    expect(await operatorFiles()).toHaveLength(1);
    const set = await loadLhapdfSet(join(fit, 'tiny'));
    expect(set.numMembers).toBe(3);
    expect(set.orderQCD).toBe(0);
    const member = await loadLhapdfMember(set, 2);
    expect(member.blockSizes).toEqual([3, 3]);
    const grid = await readExportGrid(join(fit, 'nnfit', 'replica_2', 'tiny.exportgrid'));
    // at Q0 the evolution is the identity (charm is fitted and evolves from its fitted value)
    for (const pid of [21, 1, -1, 2, -2, 3, -3, 4, -4]) {
      const flavour = FLAVOUR_BASIS.findIndex((entry) => entry.pid === pid);
      const column = member.pids.indexOf(pid);
      for (const i of [30, 100, 150, 190]) {
        const exported = grid.pdfGrid[i * FLAVOUR_BASIS.length + flavour];
        const written = member.values[i * Q_GRID.length * member.pids.length + column];
        expect(Math.abs(written - exported)).toBeLessThanOrEqual(1e-7 * Math.abs(exported));
      }
    }
  });

  it('should read the operator from the cache the second time and write the same set as --no-cache', async () => {
    const memberFile = join(fit, 'tiny', 'tiny_0001.dat');
    const built = await readFile(memberFile);
    const cached = await run('evolve', fit, '--q-grid', qGrid);
    expect(cached.code).toBe(0);
    expect(cached.out).toMatch(/read the evolution operator from .*evolution-operator-\w+\.h5/);
    expect((await readFile(memberFile)).equals(built)).toBe(true);
    const uncached = await run('evolve', fit, '--q-grid', qGrid, '--no-cache');
    expect(uncached.code).toBe(0);
    expect(uncached.out).toMatch(/built the evolution operator in [\d.]+ s\n/);
    expect((await readFile(memberFile)).equals(built)).toBe(true);
  });

  it('should warn about a damaged cached operator, rebuild it and still write the set', async () => {
    const [cacheFile] = await operatorFiles();
    const path = join(cache, 'partonfit', cacheFile);
    // the last matrix stored, of the highest scale (those at Q0 are identities)
    const { datasets } = await readHdf5File(path);
    const matrix = datasets.get(`matrices/${datasets.size - 6}`)?.data;
    if (!(matrix instanceof Float64Array)) throw new Error('expected an operator matrix');
    const value = matrix.findIndex((entry) => entry !== 0 && entry !== 1);
    const bytes = await readFile(path);
    const at = bytes.indexOf(Buffer.from(matrix.buffer, matrix.byteOffset + 8 * value, 32));
    if (at < 0) throw new Error('expected the matrix values in the file');
    bytes[at + 5] ^= 0x04;
    await writeFile(path, bytes);
    const result = await run('evolve', fit, '--q-grid', qGrid);
    expect(result.code).toBe(0);
    expect(result.error).toContain(
      `partonfit evolve: warning: ${path}: content_sha256: the stored operator does not match its checksum`,
    );
    expect(result.out).toContain('built the evolution operator');
  });

  it('should be a usage error when neither --theory nor the runcard names a theory card', async () => {
    const runcard = join(fit, 'runcard.yml');
    const text = await readFile(runcard, 'utf8');
    await writeFile(runcard, text.replace(/evolution:\n {2}theory_card: toyLH-LO\n/, ''));
    const result = await run('evolve', fit, '--q-grid', qGrid);
    await writeFile(runcard, text);
    expect(result.code).toBe(2);
    expect(result.error).toContain(
      `partonfit evolve: no theory card: pass --theory <theory card> or set evolution.theory_card in ${runcard}`,
    );
  });
});
