import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import { readInputText } from '@partonfit/io';
import { makeTar } from '@partonfit/testing/tar';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { afterEach, describe, expect, it } from 'vitest';
import {
  shippedFkTable,
  syntheticTheoryArchive,
  theoryArchive,
  theoryIndex,
} from '../archives.fixture.js';
import { DownloadError } from '../download-error.js';
import { refusedUrl, startLocalServer, type LocalServer } from '@partonfit/testing/local-server';
import type { Servers } from '../servers.js';
import type { GetEvent } from './install-archive.js';
import { getTheory } from './get-theory.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A local server laid out as NNPDF's: `/theories/` without an index (as a server that is down
 * for indexes), `/tables/` with `theorydata.json` and the archives.
 */
async function nnpdfServer(
  archives: Readonly<Record<string, Uint8Array>>,
  options: { listed?: readonly string[]; cut?: number } = {},
): Promise<{ servers: Servers; data: string }> {
  const files: Record<string, Uint8Array | string> = {
    '/tables/theorydata.json': theoryIndex(options.listed ?? Object.keys(archives)),
  };
  for (const [name, bytes] of Object.entries(archives)) files[`/tables/${name}`] = bytes;
  const cutFirstResponse: Record<string, number> = {};
  if (options.cut !== undefined) {
    for (const name of Object.keys(archives)) cutFirstResponse[`/tables/${name}`] = options.cut;
  }
  server = await startLocalServer(files, { cutFirstResponse });
  return {
    servers: { theoryUrls: [`${server.url}theories/`, `${server.url}tables/`], lhapdfUrl: '' },
    data: await mkdtemp(join(tmpdir(), 'partonfit-data-')),
  };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('getTheory from a local server laid out as NNPDF’s', () => {
  it('should find the theory in the second server’s index and unpack it atomically', async () => {
    const archive = syntheticTheoryArchive(7);
    const { servers, data } = await nnpdfServer({ 'theory_7.tgz': archive });
    const events: GetEvent['kind'][] = [];
    const result = await getTheory(7, {
      dataFolder: data,
      servers,
      report: (event) => events.push(event.kind),
    });
    const folder = join(data, 'theories', 'theory_7');
    expect(result).toEqual({
      folder,
      url: `${server?.url}tables/theory_7.tgz`,
      download: { bytes: archive.length, resumedBytes: 0, transfers: 1 },
    });
    expect(server?.requests.map((request) => request.path)).toEqual([
      '/theories/theorydata.json',
      '/tables/theorydata.json',
      '/tables/theory_7.tgz',
    ]);
    expect(events[0]).toBe('download');
    expect(events.slice(-2)).toEqual(['unpack', 'check']);
    // Nothing but the theory is left: no archive, part file or unpack folder.
    expect(await readdir(join(data, 'theories'))).toEqual(['theory_7']);
    expect((await readdir(join(folder, 'fastkernel'))).sort()).toEqual(['FK_A.dat', 'FK_B.dat']);
    const table = await readInputText(join(folder, 'fastkernel', 'FK_B.dat'));
    expect(table).toEqual({
      text: 'table B\n'.repeat(50),
      member: 'theory_7/fastkernel/FK_B.dat',
    });
    // A second get finds it there and asks the server nothing.
    const again = await getTheory(7, { dataFolder: data, servers });
    expect(again).toEqual({ folder, url: undefined, download: undefined });
    expect(server?.requests).toHaveLength(3);
  });

  it('should resume the archive after the server cut the first transfer mid-way', async () => {
    const archive = syntheticTheoryArchive(7);
    const cut = archive.length >> 1;
    const { servers, data } = await nnpdfServer({ 'theory_7.tgz': archive }, { cut });
    const result = await getTheory(7, { dataFolder: data, servers });
    expect(result.download?.transfers).toBe(2);
    const resumed = result.download?.resumedBytes ?? 0;
    expect(resumed).toBeGreaterThan(0);
    expect(resumed).toBeLessThanOrEqual(cut);
    expect(server?.requests.at(-1)).toMatchObject({
      path: '/tables/theory_7.tgz',
      range: `bytes=${resumed}-`,
      ifRange: expect.stringMatching(/^"[0-9a-f]{16}"$/) as unknown,
    });
    expect(await readdir(join(data, 'theories'))).toEqual(['theory_7']);
    expect((await readInputText(join(result.folder, 'fastkernel', 'FK_A.dat'))).text).toBe(
      'table A\n'.repeat(3000),
    );
  });

  it('should unpack the complete archive a run killed while unpacking left, without downloading', async () => {
    const archive = syntheticTheoryArchive(7);
    const { servers, data } = await nnpdfServer({ 'theory_7.tgz': archive });
    const theories = join(data, 'theories');
    await mkdir(join(theories, '.theory_7.unpack-abc123', 'theory_7'), { recursive: true });
    await writeFile(join(theories, 'theory_7.tgz'), archive);
    const result = await getTheory(7, { dataFolder: data, servers });
    expect(result.download).toBeUndefined();
    expect(server?.requests.map((request) => request.path)).toEqual([
      '/theories/theorydata.json',
      '/tables/theorydata.json',
    ]);
    expect(await readdir(theories)).toEqual(['theory_7']);
    expect((await readdir(join(result.folder, 'fastkernel'))).sort()).toEqual([
      'FK_A.dat',
      'FK_B.dat',
    ]);
  });

  it('should refuse a corrupt archive and leave nothing behind', async () => {
    const archive = Buffer.from(syntheticTheoryArchive(7));
    for (let i = 100; i < 140; i++) archive[i] ^= 0x5a;
    const { servers, data } = await nnpdfServer({ 'theory_7.tgz': archive });
    const error = await failure(getTheory(7, { dataFolder: data, servers }));
    expect(InputFileError.isInstance(error)).toBe(true);
    expect((error as InputFileError).file).toBe(join(data, 'theories', 'theory_7.tgz'));
    expect((error as Error).message).toMatch(/gzip data/);
    expect(await readdir(join(data, 'theories'))).toEqual([]);
  });

  it('should refuse an archive whose FK table is a truncated gzip, or without fastkernel/', async () => {
    const whole = shippedFkTable(7, 'A', 'table A\n'.repeat(3000));
    const truncated = theoryArchive(7, { 'FK_A.dat': whole.subarray(0, whole.length - 20) });
    const noTables = gzipSync(makeTar([{ name: 'theory_8/README', content: 'no tables' }]));
    const { servers, data } = await nnpdfServer({
      'theory_7.tgz': truncated,
      'theory_8.tgz': noTables,
    });
    const first = await failure(getTheory(7, { dataFolder: data, servers }));
    expect((first as Error).message).toMatch(/fastkernel\/FK_A\.dat: truncated gzip data/);
    const second = await failure(getTheory(8, { dataFolder: data, servers }));
    expect((second as Error).message).toBe(
      `${join(data, 'theories', 'theory_8.tgz')}: not laid out as an NNPDF theory: no FK table in theory_8/fastkernel/`,
    );
    expect(await readdir(join(data, 'theories'))).toEqual([]);
  });

  it('should check a plain gzip FK table whole: sound it is kept, truncated it is refused', async () => {
    const plain = gzipSync('plain table\n'.repeat(2000));
    const { servers, data } = await nnpdfServer({
      'theory_6.tgz': theoryArchive(6, { 'FK_C.dat.gz': plain }),
      'theory_5.tgz': theoryArchive(5, { 'FK_C.dat.gz': plain.subarray(0, plain.length - 8) }),
    });
    const { folder } = await getTheory(6, { dataFolder: data, servers });
    expect((await readInputText(join(folder, 'fastkernel', 'FK_C.dat.gz'))).text).toBe(
      'plain table\n'.repeat(2000),
    );
    const error = await failure(getTheory(5, { dataFolder: data, servers }));
    expect((error as Error).message).toMatch(/fastkernel\/FK_C\.dat\.gz: truncated gzip data/);
    expect(await readdir(join(data, 'theories'))).toEqual(['theory_6']);
  });

  it('should say which theory no server lists, and which archive a server lacks (404)', async () => {
    const { servers, data } = await nnpdfServer(
      { 'theory_7.tgz': syntheticTheoryArchive(7) },
      { listed: ['theory_7.tgz', 'theory_5.tgz'] },
    );
    const unknown = await failure(getTheory(999, { dataFolder: data, servers }));
    expect(DownloadError.isInstance(unknown)).toBe(true);
    expect((unknown as DownloadError).status).toBe(404);
    expect((unknown as Error).message).toContain(
      `: no theory 999 on NNPDF's servers: the indexes ${server?.url}tables/theorydata.json list 2 theories, not theory_999 (unread: ${server?.url}theories/theorydata.json: the server has no NNPDF's theory index (HTTP 404 Not Found))`,
    );
    const missing = await failure(getTheory(5, { dataFolder: data, servers }));
    expect((missing as Error).message).toBe(
      `${server?.url}tables/theory_5.tgz: the server has no theory 5's archive (HTTP 404 Not Found)`,
    );
    expect(existsSync(join(data, 'theories', 'theory_5'))).toBe(false);
  });

  it('should say offline that no server can be reached, naming the address', async () => {
    const offline = await refusedUrl();
    const data = await mkdtemp(join(tmpdir(), 'partonfit-data-'));
    const error = await failure(
      getTheory(200, { dataFolder: data, servers: { theoryUrls: [offline], lhapdfUrl: '' } }),
    );
    expect(DownloadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${offline}theorydata\\.json: cannot read any of NNPDF's theory indexes: .*cannot reach the server \\(.*ECONNREFUSED`,
      ),
    );
    expect(existsSync(join(data, 'theories'))).toBe(false);
  });

  it('should refuse a theory id that is not a non-negative integer', async () => {
    await expect(getTheory(-1)).rejects.toThrow(InvalidArgumentError);
  });
});

const SHIPPED = 'theory_200/fastkernel_tar';
describe.skipIf(!hasSharedData(SHIPPED, "NNPDF's shipped theory-200 FK tables"))(
  'getTheory on an archive made of NNPDF’s real theory-200 tables',
  () => {
    it('should unpack FK tables that read as the plain tables', async () => {
      const names = ['FK_POSXDQ.dat', 'FK_ATLASTTBARTOT13TEV.dat'];
      const tables: Record<string, Uint8Array> = {};
      for (const name of names) tables[name] = await readFile(`${SHARED_DATA}${SHIPPED}/${name}`);
      const { servers, data } = await nnpdfServer({ 'theory_200.tgz': theoryArchive(200, tables) });
      const { folder } = await getTheory(200, { dataFolder: data, servers });
      for (const name of names) {
        const plain = await readFile(`${SHARED_DATA}theory_200/fastkernel/${name}`, 'utf8');
        expect((await readInputText(join(folder, 'fastkernel', name))).text).toBe(plain);
      }
    });
  },
);
