import { crc32, inflateRawSync } from 'node:zlib';
import { InputFileError } from '@partonfit/core';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const SATURATED_16 = 0xffff;
const SATURATED_32 = 0xffffffff;

/** One file stored in a zip archive, decompressed and CRC-checked. */
export interface ZipMember {
  readonly name: string;
  readonly bytes: Uint8Array;
}

function zipError(file: string, problem: string, key?: string, cause?: unknown): InputFileError {
  return new InputFileError({ file, key, problem, cause });
}

function zip64Error(file: string): InputFileError {
  return zipError(
    file,
    'zip64 archives (members or archives over 4 GiB or 65535 members) are not supported',
  );
}

function findEndOfCentralDirectory(view: DataView, file: string): number {
  const last = view.byteLength - 22;
  const first = Math.max(0, last - SATURATED_16);
  for (let offset = last; offset >= first; offset--) {
    if (view.getUint32(offset, true) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  throw zipError(file, 'corrupt zip: no end-of-central-directory record (not a zip, or truncated)');
}

/** Decompresses one member's data, stored (method 0) or deflated (method 8). */
function memberBytes(
  compressed: Uint8Array,
  method: number,
  file: string,
  name: string,
): Uint8Array {
  if (method === 0) return compressed;
  if (method !== 8) {
    throw zipError(file, `unsupported zip compression method ${method}`, name);
  }
  try {
    return inflateRawSync(compressed);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw zipError(file, `corrupt zip: cannot inflate the member (${reason})`, name, cause);
  }
}

/**
 * The files of a zip archive, found through its central directory (the local headers are used
 * only to locate each member's data). Directories are skipped.
 *
 * @param bytes - the whole archive
 * @param file - the archive's path, for error messages
 * @throws InputFileError for a missing or inconsistent central directory, truncated member data,
 *   encryption, compression methods other than stored and deflate, a size or CRC-32 mismatch, and
 *   zip64 archives
 */
export function readZipMembers(bytes: Uint8Array, file: string): ZipMember[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 22) throw zipError(file, 'corrupt zip: too short for a zip archive');
  const end = findEndOfCentralDirectory(view, file);
  if (end >= 20 && view.getUint32(end - 20, true) === ZIP64_LOCATOR) throw zip64Error(file);
  const entryCount = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (
    entryCount === SATURATED_16 ||
    directorySize === SATURATED_32 ||
    directoryOffset === SATURATED_32
  ) {
    throw zip64Error(file);
  }
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0) {
    throw zipError(file, 'multi-disk zip archives are not supported');
  }
  if (directoryOffset + directorySize > end) {
    throw zipError(file, 'corrupt zip: the central directory lies outside the archive');
  }

  const members: ZipMember[] = [];
  let offset = directoryOffset;
  for (let entry = 0; entry < entryCount; entry++) {
    if (offset + 46 > end || view.getUint32(offset, true) !== CENTRAL_HEADER) {
      throw zipError(file, `corrupt zip: central directory entry ${entry} is damaged`);
    }
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    const crc = view.getUint32(offset + 16, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const size = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localOffset = view.getUint32(offset + 42, true);
    const name = Buffer.from(bytes.subarray(offset + 46, offset + 46 + nameLength)).toString(
      'utf8',
    );
    offset += 46 + nameLength + extraLength + commentLength;
    if ([compressedSize, size, localOffset].includes(SATURATED_32)) throw zip64Error(file);
    if (name.endsWith('/')) continue;
    if ((flags & 1) !== 0) throw zipError(file, 'encrypted zip members are not supported', name);
    if (localOffset + 30 > bytes.length || view.getUint32(localOffset, true) !== LOCAL_HEADER) {
      throw zipError(file, 'corrupt zip: the member has no local header', name);
    }
    const dataStart =
      localOffset +
      30 +
      view.getUint16(localOffset + 26, true) +
      view.getUint16(localOffset + 28, true);
    if (dataStart + compressedSize > bytes.length) {
      throw zipError(file, 'truncated zip: the member data runs past the end', name);
    }
    const data = memberBytes(
      bytes.subarray(dataStart, dataStart + compressedSize),
      method,
      file,
      name,
    );
    if (data.length !== size || crc32(data) !== crc) {
      throw zipError(file, 'corrupt zip: the member fails its size or CRC-32 check', name);
    }
    members.push({ name, bytes: data });
  }
  return members;
}
