import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { InputFileError } from '@partonfit/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { readInputBytes, readInputText, unpackInputBytes } from './read-input.js';
import { makeTar, paxPathRecord } from '@partonfit/testing/tar';

const PLAIN = `${SHARED_DATA}theory_200/fastkernel/FK_POSXDQ.dat`;
const SHIPPED = `${SHARED_DATA}theory_200/fastkernel_tar/FK_POSXDQ.dat`;
const hasTables =
  hasSharedData('theory_200/fastkernel/FK_POSXDQ.dat', 'plain FK table') &&
  hasSharedData('theory_200/fastkernel_tar/FK_POSXDQ.dat', 'gzip-tar FK table');

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'partonfit-io-compressed-'));
});

async function write(name: string, contents: Uint8Array | string): Promise<string> {
  const file = join(folder, name);
  await writeFile(file, contents);
  return file;
}

/** The error `promise` rejects with, which must be an InputFileError. */
async function inputError(promise: Promise<unknown>): Promise<InputFileError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!InputFileError.isInstance(error))
    throw new Error(`expected an InputFileError, got ${String(error)}`);
  return error;
}

describe.skipIf(!hasTables)('readInputText on NNPDF FK tables', () => {
  it('should unpack the gzip-compressed tar NNPDF ships into the plain table, naming the member', async () => {
    const plain = await readFile(PLAIN, 'utf8');
    const shipped = await readInputText(SHIPPED);
    expect(shipped.text).toBe(plain);
    expect(shipped.text.startsWith('{GridDesc___')).toBe(true);
    expect(shipped.member).toMatch(/(^|\/)theory_200\/fastkernel\/FK_POSXDQ\.dat$/);
  });

  it('should read the plain table as is, with no member', async () => {
    const plain = await readInputText(PLAIN);
    expect(plain.member).toBeUndefined();
    expect(plain.text.length).toBe(201258);
  });

  it('should read the uncompressed tar and a gzip of the plain table', async () => {
    const plain = await readFile(PLAIN);
    const tar = await write('FK_POSXDQ.tar', gunzipSync(await readFile(SHIPPED)));
    const gzip = await write('FK_POSXDQ.dat.gz', gzipSync(plain));
    const fromTar = await readInputBytes(tar);
    expect(Buffer.from(fromTar.bytes).equals(plain)).toBe(true);
    expect(fromTar.member).toMatch(/FK_POSXDQ\.dat$/);
    const fromGzip = await readInputBytes(gzip);
    expect(Buffer.from(fromGzip.bytes).equals(plain)).toBe(true);
    expect(fromGzip.member).toBeUndefined();
  });

  it('should name the file of a truncated gzip', async () => {
    const shipped = await readFile(SHIPPED);
    const file = await write('truncated.dat', shipped.subarray(0, shipped.length >> 1));
    const error = await inputError(readInputBytes(file));
    expect(error.file).toBe(file);
    expect(error.message).toMatch(/truncated gzip/);
  });

  it('should reject a gzip whose compressed data was altered', async () => {
    const corrupt = Buffer.from(await readFile(SHIPPED));
    for (let i = 2000; i < 2100; i++) corrupt[i] ^= 0x5a;
    const file = await write('corrupt.dat', corrupt);
    const error = await inputError(readInputBytes(file));
    expect(error.message).toMatch(/gzip/);
    expect(error.file).toBe(file);
  });

  it('should reject a tar cut inside its member', async () => {
    const tar = gunzipSync(await readFile(SHIPPED));
    const file = await write('cut.tar', tar.subarray(0, 512 + 1000));
    const error = await inputError(readInputBytes(file));
    expect(error.message).toMatch(
      /truncated tar: member at byte 0 needs 201258 bytes, only 1000 remain/,
    );
  });
});

describe('readInputBytes on synthetic archives', () => {
  it('should take a tar member name from the ustar prefix and from a pax header', async () => {
    const prefixed = await write(
      'prefixed.tar',
      makeTar([{ name: 'FK_X.dat', prefix: 'theory_1/fastkernel', content: 'abc' }]),
    );
    expect(await readInputText(prefixed)).toEqual({
      text: 'abc',
      member: 'theory_1/fastkernel/FK_X.dat',
    });
    const longName = `${'deep/'.repeat(40)}FK_Y.dat`;
    const pax = await write(
      'pax.tar',
      makeTar([
        { name: 'PaxHeader', type: 'x', content: paxPathRecord(longName) },
        { name: 'truncated-name', content: 'xyz' },
      ]),
    );
    expect(await readInputText(pax)).toEqual({ text: 'xyz', member: longName });
  });

  it('should skip directories and unpack a gzip-compressed tar', () => {
    const tar = makeTar([
      { name: 'theory_1/', type: '5' },
      { name: 'theory_1/FK_Z.dat', content: 'x'.repeat(700) },
    ]);
    const result = unpackInputBytes(gzipSync(tar), 'memory.tgz');
    expect(result.member).toBe('theory_1/FK_Z.dat');
    expect(result.bytes.length).toBe(700);
  });

  it('should name the files of a tar that holds two', async () => {
    const file = await write(
      'two.tar',
      makeTar([
        { name: 'FK_A.dat', content: '1' },
        { name: 'FK_B.dat', content: '2' },
      ]),
    );
    const error = await inputError(readInputBytes(file));
    expect(error.message).toBe(`${file}: tar holds 2 files, expected one: FK_A.dat, FK_B.dat`);
  });

  it('should say when a tar holds no file, naming what it does hold', async () => {
    const file = await write('empty.tar', makeTar([{ name: 'fastkernel/', type: '5' }]));
    const error = await inputError(readInputBytes(file));
    expect(error.message).toBe(`${file}: tar holds no regular file (only fastkernel/)`);
  });

  it('should reject a tar header with a wrong checksum and a tar cut inside a header', async () => {
    const tar = makeTar([{ name: 'FK_A.dat', content: 'abc' }]);
    tar[10] = 'Q'.charCodeAt(0);
    const corrupt = await write('checksum.tar', tar);
    expect((await inputError(readInputBytes(corrupt))).message).toMatch(
      /corrupt tar: header at byte 0 has a wrong checksum/,
    );
    const twoMembers = makeTar([
      { name: 'FK_A.dat', content: 'abc' },
      { name: 'FK_B.dat', content: 'def' },
    ]);
    const cut = await write('cut-header.tar', twoMembers.subarray(0, 1024 + 300));
    expect((await inputError(readInputBytes(cut))).message).toMatch(
      /truncated tar: 300 stray bytes/,
    );
  });

  it('should reject a missing file and text that is not UTF-8', async () => {
    const missing = join(folder, 'no-such-file.dat');
    const error = await inputError(readInputBytes(missing));
    expect(error.file).toBe(missing);
    expect(error.message).toMatch(/cannot read the file \(ENOENT/);
    const binary = await write('binary.dat', new Uint8Array([0x41, 0xff, 0xfe, 0x42]));
    expect((await inputError(readInputText(binary))).message).toBe(`${binary}: not UTF-8 text`);
  });

  it('should return non-archive bytes unchanged', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(unpackInputBytes(bytes, 'raw.bin')).toEqual({ bytes, member: undefined });
  });
});
