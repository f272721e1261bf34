import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { InputFileError, PartonfitError } from '@partonfit/core';
import { isGzip } from '@partonfit/io';
import { TarUnpacker, type TarMember } from './tar-unpacker.js';

/** The first `length` bytes of `file` (fewer when it is shorter). */
export async function firstBytes(file: string, length = 512): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The archive's bytes as a stream, decompressed when they are gzip. */
async function tarStream(archive: string): Promise<Readable> {
  const raw = createReadStream(archive);
  return isGzip(await firstBytes(archive, 2)) ? raw.pipe(createGunzip()) : raw;
}

/** A failure to read `archive` as a typed error: partonfit's own as they are, zlib's as gzip. */
function archiveError(archive: string, cause: unknown): PartonfitError {
  if (PartonfitError.isInstance(cause)) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const code = (cause as NodeJS.ErrnoException).code ?? '';
  const problem = code.startsWith('Z_')
    ? `${/unexpected end/i.test(reason) ? 'truncated' : 'corrupt'} gzip data (${reason})`
    : `cannot unpack (${reason})`;
  return new InputFileError({ file: archive, problem, cause });
}

/**
 * Decompresses a gzip file completely (checking its CRC-32 and length) without keeping it.
 *
 * @returns the first 512 decompressed bytes (fewer when it is shorter)
 * @throws InputFileError naming the file when its gzip data are corrupt or truncated
 */
export async function checkGzip(file: string): Promise<Uint8Array> {
  const head: Buffer[] = [];
  let kept = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (kept < 512) {
        head.push(chunk.subarray(0, 512 - kept));
        kept += head[head.length - 1].length;
      }
      callback();
    },
  });
  try {
    await pipeline(createReadStream(file), createGunzip(), sink);
  } catch (cause) {
    throw archiveError(file, cause);
  }
  return Buffer.concat(head);
}

/**
 * Reads a tar archive, plain or gzip-compressed (`.tgz`, `.tar.gz`), as a stream, writing its
 * members under `folder` — or, with no folder, only checking that it unpacks completely. Every
 * byte is read: the gzip CRC-32 and length, each tar header's checksum, and the archive's end.
 *
 * @param archive - the archive's file
 * @param folder - an existing, empty folder to unpack into; undefined only checks
 * @returns the archive's members
 * @throws InputFileError naming the archive when it cannot be read, its gzip data are corrupt
 *   or truncated, or its tar structure is (see {@link TarUnpacker})
 */
export async function unpackArchive(
  archive: string,
  folder: string | undefined,
): Promise<TarMember[]> {
  const unpacker = new TarUnpacker(archive, folder);
  try {
    const source = await tarStream(archive);
    await pipeline(source, unpacker);
  } catch (cause) {
    throw archiveError(archive, cause);
  }
  return unpacker.members;
}
