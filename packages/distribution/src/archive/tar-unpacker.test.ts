import { mkdtemp, readFile, readlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { InputFileError } from '@partonfit/core';
import { makeTar, paxPathRecord, type TarFixtureEntry } from '@partonfit/testing/tar';
import { describe, expect, it } from 'vitest';
import { TarUnpacker } from './tar-unpacker.js';
import { unpackArchive } from './unpack-archive.js';

/** Feeds `bytes` to an unpacker in chunks of `chunk` bytes. */
async function unpack(bytes: Uint8Array, folder: string | undefined, chunk: number) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += chunk)
    chunks.push(Buffer.from(bytes.subarray(i, i + chunk)));
  const unpacker = new TarUnpacker('test.tar', folder);
  await pipeline(Readable.from(chunks), unpacker);
  return unpacker.members;
}

async function unpackError(entries: readonly TarFixtureEntry[], folder?: string): Promise<string> {
  const target = folder ?? (await mkdtemp(join(tmpdir(), 'partonfit-tar-')));
  const error = await unpack(makeTar(entries), target, 512).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!InputFileError.isInstance(error))
    throw new Error(`expected an InputFileError: ${String(error)}`);
  return error.message;
}

const LONG = `theory_1/${'nested/'.repeat(30)}FK_LONG.dat`;
const ENTRIES: TarFixtureEntry[] = [
  { name: './', type: '5' },
  { name: './theory_1/', type: '5' },
  { name: 'fastkernel/FK_A.dat', prefix: 'theory_1', content: 'a'.repeat(1300) },
  { name: 'PaxHeader', type: 'x', content: paxPathRecord(LONG) },
  { name: 'ignored', content: 'long name' },
  { name: 'theory_1/empty.dat', content: '' },
];

describe('TarUnpacker', () => {
  it.each([1, 7, 512, 1000, 100_000])(
    'should unpack the same members whatever the chunk size (%i bytes)',
    async (chunk) => {
      const folder = await mkdtemp(join(tmpdir(), 'partonfit-tar-'));
      const members = await unpack(makeTar(ENTRIES), folder, chunk);
      expect(members).toEqual([
        { name: 'theory_1', kind: 'directory', size: 0 },
        { name: 'theory_1/fastkernel/FK_A.dat', kind: 'file', size: 1300 },
        { name: LONG, kind: 'file', size: 9 },
        { name: 'theory_1/empty.dat', kind: 'file', size: 0 },
      ]);
      expect(await readFile(join(folder, 'theory_1/fastkernel/FK_A.dat'), 'utf8')).toBe(
        'a'.repeat(1300),
      );
      expect(await readFile(join(folder, LONG), 'utf8')).toBe('long name');
      expect(await readFile(join(folder, 'theory_1/empty.dat'), 'utf8')).toBe('');
    },
  );

  it('should refuse names and links that leave the folder, and device members', async () => {
    expect(await unpackError([{ name: '../evil.dat', content: 'x' }])).toBe(
      "test.tar: unsafe member name '../evil.dat' (absolute or outside the archive's folder)",
    );
    expect(await unpackError([{ name: '/etc/evil.dat', content: 'x' }])).toMatch(/unsafe member/);
    expect(await unpackError([{ name: 'a/../../evil', content: 'x' }])).toMatch(/unsafe member/);
    expect(await unpackError([{ name: 'dev', type: '3' }])).toBe(
      "test.tar: member 'dev' has type '3', not a file, folder or link",
    );
  });

  it('should make a symbolic link that stays inside the folder', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-tar-'));
    const tar = Buffer.from(
      makeTar([
        { name: 'set/a.dat', content: 'a' },
        { name: 'set/b.dat', type: '2' },
      ]),
    );
    // The link target lives in the header's linkname field (byte 157); fix the checksum after.
    tar.write('a.dat', 512 + 512 + 157);
    tar.fill(0x20, 1024 + 148, 1024 + 156);
    const sum = tar.subarray(1024, 1536).reduce((total, byte) => total + byte, 0);
    tar.write(`${sum.toString(8).padStart(6, '0')}\0 `, 1024 + 148);
    await unpack(tar, folder, 512);
    expect(await readlink(join(folder, 'set/b.dat'))).toBe('a.dat');
    expect(await readFile(join(folder, 'set/b.dat'), 'utf8')).toBe('a');
  });

  it('should say where a truncated archive ends, and check without writing', async () => {
    const tar = makeTar([{ name: 'a.dat', content: 'x'.repeat(2000) }]);
    const cut = async (length: number) =>
      unpack(tar.subarray(0, length), undefined, 512).then(
        () => 'unpacked',
        (error: unknown) => (error as Error).message,
      );
    expect(await cut(1024)).toBe(
      'test.tar: truncated tar: the archive ends inside a member (1488 bytes missing)',
    );
    expect(await cut(300)).toBe('test.tar: truncated tar: the archive ends inside a header');
    expect(await unpack(tar, undefined, 512)).toEqual([
      { name: 'a.dat', kind: 'file', size: 2000 },
    ]);
  });
});

describe('unpackArchive', () => {
  it('should unpack a gzip tar and name the file of corrupt gzip data', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-tgz-'));
    const archive = join(folder, 'a.tgz');
    const bytes = Buffer.from(
      gzipSync(makeTar([{ name: 'set/a.dat', content: 'abc'.repeat(500) }])),
    );
    await writeFile(archive, bytes);
    const into = await mkdtemp(join(tmpdir(), 'partonfit-into-'));
    expect(await unpackArchive(archive, into)).toEqual([
      { name: 'set/a.dat', kind: 'file', size: 1500 },
    ]);
    await writeFile(archive, bytes.subarray(0, bytes.length - 10));
    await expect(unpackArchive(archive, undefined)).rejects.toThrow(
      new RegExp(`^${archive}: truncated gzip data \\(unexpected end of file\\)$`),
    );
  });
});
