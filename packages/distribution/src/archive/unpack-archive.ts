import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGunzip, gunzipSync } from 'node:zlib';
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
 * The first decompressed bytes of a gzip file, from its first 64 kB only (enough for a tar
 * header); undefined when those do not decompress (a corrupt start, which {@link checkGzip}
 * then reports).
 */
export async function gzipHead(file: string): Promise<Uint8Array | undefined> {
  try {
    const start = gunzipSync(await firstBytes(file, 65_536), {
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    return start.subarray(0, 512);
  } catch {
    return undefined;
  }
}

/**
 * Decompresses a gzip file completely (checking its CRC-32 and length) without keeping it.
 *
 * @throws InputFileError naming the file when its gzip data are corrupt or truncated
 */
export async function checkGzip(file: string): Promise<void> {
  const sink = new Writable({
    write(_chunk: Buffer, _encoding, callback) {
      callback();
    },
  });
  try {
    await pipeline(createReadStream(file), createGunzip(), sink);
  } catch (cause) {
    throw archiveError(file, cause);
  }
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
