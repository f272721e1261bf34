import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import { loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { makeTar, type TarFixtureEntry } from '@partonfit/testing/tar';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadError } from '../download-error.js';
import { startLocalServer, type LocalServer } from '@partonfit/testing/local-server';
import { getLhapdfSet } from './get-lhapdf-set.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** `<set>.tar.gz` holding `<set>/` with `files` (name → content). */
function setArchive(set: string, files: Readonly<Record<string, string | Uint8Array>>): Uint8Array {
  const entries: TarFixtureEntry[] = [{ name: `${set}/`, type: '5' }];
  for (const [name, content] of Object.entries(files)) {
    entries.push({ name: `${set}/${name}`, content });
  }
  return gzipSync(makeTar(entries));
}

const INFO = (members: number) =>
  `SetDesc: "a toy set"\nNumMembers: ${members}\nFlavors: [21, 1, 2]\n`;

/** A local LHAPDF-like server with `archives` at `/current/<name>`, and a fresh data folder. */
async function lhapdfServer(archives: Readonly<Record<string, Uint8Array>>) {
  const files: Record<string, Uint8Array> = {};
  for (const [name, bytes] of Object.entries(archives)) files[`/current/${name}`] = bytes;
  server = await startLocalServer(files);
  return {
    servers: { theoryUrls: [], lhapdfUrl: `${server.url}current/` },
    data: await mkdtemp(join(tmpdir(), 'partonfit-data-')),
  };
}

describe('getLhapdfSet from a local server laid out as LHAPDF’s', () => {
  it('should unpack the set into <data>/lhapdf/<set>', async () => {
    const archive = setArchive('Toy', {
      'Toy.info': INFO(2),
      'Toy_0000.dat': 'member 0',
      'Toy_0001.dat': 'member 1',
    });
    const { servers, data } = await lhapdfServer({ 'Toy.tar.gz': archive });
    const result = await getLhapdfSet('Toy', { dataFolder: data, servers });
    expect(result).toEqual({
      folder: join(data, 'lhapdf', 'Toy'),
      url: `${server?.url}current/Toy.tar.gz`,
      download: { bytes: archive.length, resumedBytes: 0, transfers: 1 },
    });
    expect(await readdir(join(data, 'lhapdf'))).toEqual(['Toy']);
    expect(await readFile(join(result.folder, 'Toy_0001.dat'), 'utf8')).toBe('member 1');
  });

  it('should refuse a set missing a member its .info announces, leaving nothing', async () => {
    const archive = setArchive('Toy', {
      'Toy.info': INFO(3),
      'Toy_0000.dat': '',
      'Toy_0001.dat': '',
    });
    const { servers, data } = await lhapdfServer({ 'Toy.tar.gz': archive });
    const error = await getLhapdfSet('Toy', { dataFolder: data, servers }).catch(
      (reason: unknown) => reason,
    );
    expect(InputFileError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `${join(data, 'lhapdf', 'Toy.tar.gz')}: the LHAPDF set Toy announces 3 members (NumMembers), Toy/Toy_0002.dat is missing`,
    );
    expect(await readdir(join(data, 'lhapdf'))).toEqual([]);
  });

  it('should say the server has no such set (HTTP 404), and refuse a name with a path', async () => {
    const { servers, data } = await lhapdfServer({});
    const error = await getLhapdfSet('NoSuchSet', { dataFolder: data, servers }).catch(
      (reason: unknown) => reason,
    );
    expect(DownloadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `${server?.url}current/NoSuchSet.tar.gz: the server has no LHAPDF set NoSuchSet (HTTP 404 Not Found)`,
    );
    await expect(getLhapdfSet('../etc', { dataFolder: data, servers })).rejects.toThrow(
      InvalidArgumentError,
    );
  });
});

const SET = 'NNPDF40_nnlo_as_01180';
describe.skipIf(!hasSharedData(`lhapdf/${SET}`, 'the NNPDF4.0 LHAPDF set'))(
  'getLhapdfSet on an archive of NNPDF4.0’s real grids',
  () => {
    it('should give a set that partonfit reads, member 0 as in the original', async () => {
      const folder = `${SHARED_DATA}lhapdf/${SET}`;
      // ../shared/data holds members 0 and 1 of the 101: the served .info announces those two.
      const info = (await readFile(`${folder}/${SET}.info`, 'utf8')).replace(
        /^NumMembers: 101$/m,
        'NumMembers: 2',
      );
      const archive = setArchive(SET, {
        [`${SET}.info`]: info,
        [`${SET}_0000.dat`]: await readFile(`${folder}/${SET}_0000.dat`),
        [`${SET}_0001.dat`]: await readFile(`${folder}/${SET}_0001.dat`),
      });
      const { servers, data } = await lhapdfServer({ [`${SET}.tar.gz`]: archive });
      const result = await getLhapdfSet(SET, { dataFolder: data, servers });
      const set = await loadLhapdfSet(result.folder);
      expect(set.numMembers).toBe(2);
      const downloaded = await loadLhapdfMember(set, 0);
      const original = await loadLhapdfMember(
        { ...(await loadLhapdfSet(folder)), numMembers: 2 },
        0,
      );
      expect(downloaded.values.length).toBe(original.values.length);
      expect(
        Buffer.from(downloaded.values.buffer).equals(Buffer.from(original.values.buffer)),
      ).toBe(true);
    });
  },
);
