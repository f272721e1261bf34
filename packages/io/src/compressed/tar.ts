import { InputFileError } from '@partonfit/core';

const BLOCK = 512;
const MAGIC_OFFSET = 257;

/** One entry of a tar archive, as far as the readers need it. */
export interface TarEntry {
  /** The member name, with a pax `path` or GNU long name applied. */
  readonly name: string;
  /** The type flag: `0` (or NUL) regular file, `5` directory, `2` symlink, … */
  readonly type: string;
  /** The member's bytes (a view into the archive). */
  readonly data: Uint8Array;
}

/** Whether `bytes` start with a POSIX ustar or GNU tar header (`ustar` at offset 257). */
export function isTar(bytes: Uint8Array): boolean {
  if (bytes.length < BLOCK) return false;
  const magic = bytes.subarray(MAGIC_OFFSET, MAGIC_OFFSET + 5);
  return String.fromCharCode(...magic) === 'ustar';
}

function readString(block: Uint8Array, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return Buffer.from(end === -1 ? field : field.subarray(0, end)).toString('utf8');
}

/**
 * A numeric header field: octal digits padded with spaces or NULs, or GNU's base-256 form (high
 * bit of the first byte set) for large sizes. NaN when the field is not a number.
 */
function readNumber(block: Uint8Array, offset: number, length: number): number {
  const field = block.subarray(offset, offset + length);
  if ((field[0] & 0x80) !== 0) {
    let value = field[0] & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i];
    return value;
  }
  const text = String.fromCharCode(...field)
    .replace(/\0.*$/s, '')
    .trim();
  return /^[0-7]+$/.test(text) ? parseInt(text, 8) : Number.NaN;
}

/**
 * Whether `stored` is the header checksum: the sum of the header bytes with the checksum field
 * counted as spaces, taken as unsigned bytes (POSIX) or as signed ones (some old writers).
 */
function checksumMatches(block: Uint8Array, stored: number): boolean {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : block[i];
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

/** The `path` record of a pax extended header (`<length> path=<name>\n` records), if any. */
function paxPath(data: Uint8Array): string | undefined {
  const text = Buffer.from(data).toString('utf8');
  let position = 0;
  while (position < text.length) {
    const space = text.indexOf(' ', position);
    const length = parseInt(text.slice(position, space), 10);
    if (space === -1 || !Number.isFinite(length) || length <= 0) return undefined;
    const record = text.slice(space + 1, position + length - 1);
    if (record.startsWith('path=')) return record.slice('path='.length);
    position += length;
  }
  return undefined;
}

/** A decoded tar header block. */
export interface TarHeader {
  /** The name in the header (ustar `prefix/name`), before pax or GNU long names apply. */
  readonly name: string;
  /** The type flag: `0` (or NUL) regular file, `5` directory, `2` symlink, `x` pax, `L` GNU, … */
  readonly type: string;
  /** The size of the member's data, in bytes (the data is padded to 512-byte blocks). */
  readonly size: number;
  /** The target of a link entry (`1` hard link, `2` symlink); empty otherwise. */
  readonly linkName: string;
}

/** The size of a tar block: headers are one block, data is padded to whole blocks. */
export const TAR_BLOCK = BLOCK;

/**
 * Decodes the 512-byte header `block` found at byte `offset` of an archive.
 *
 * @returns the header, or undefined for an end-of-archive (all-zero) block
 * @throws InputFileError when the checksum is wrong or the size is not a number
 */
export function readTarHeader(
  block: Uint8Array,
  offset: number,
  file: string,
): TarHeader | undefined {
  if (block.every((byte) => byte === 0)) return undefined;
  if (!checksumMatches(block, readNumber(block, 148, 8))) {
    throw new InputFileError({
      file,
      problem: `corrupt tar: header at byte ${offset} has a wrong checksum`,
    });
  }
  const size = readNumber(block, 124, 12);
  if (!Number.isFinite(size)) {
    throw new InputFileError({
      file,
      problem: `corrupt tar: header at byte ${offset} has no valid size`,
    });
  }
  const posix = readString(block, MAGIC_OFFSET, 6) === 'ustar';
  const prefix = posix ? readString(block, 345, 155) : '';
  const headerName = readString(block, 0, 100);
  return {
    name: prefix === '' ? headerName : `${prefix}/${headerName}`,
    type: String.fromCharCode(block[156]),
    size,
    linkName: readString(block, 157, 100),
  };
}

/**
 * What a metadata entry says about the entry after it: for a pax extended header (`x`) its
 * `path` (undefined when it sets none), for a GNU long name (`L`) the name; `g` and `K` entries
 * say nothing that the readers use. Undefined for any other type.
 */
export function tarMetadata(
  type: string,
  data: Uint8Array,
): { readonly name: string | undefined } | undefined {
  if (type === 'x') return { name: paxPath(data) };
  if (type === 'L') return { name: Buffer.from(data).toString('utf8').replace(/\0+$/, '') };
  if (type === 'g' || type === 'K') return { name: undefined };
  return undefined;
}

/**
 * The entries of a tar archive (POSIX ustar, pax or GNU), with pax and GNU long names applied
 * to the entry they describe. Stops at the end-of-archive zero block or at the end of the bytes.
 *
 * @throws InputFileError when a header is corrupt or an entry runs past the end of the bytes
 */
export function tarEntries(bytes: Uint8Array, file: string): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let pendingName: string | undefined;
  while (offset + BLOCK <= bytes.length) {
    const header = readTarHeader(bytes.subarray(offset, offset + BLOCK), offset, file);
    if (header === undefined) return entries;
    const dataStart = offset + BLOCK;
    if (dataStart + header.size > bytes.length) {
      throw new InputFileError({
        file,
        problem: `truncated tar: member at byte ${offset} needs ${header.size} bytes, only ${bytes.length - dataStart} remain`,
      });
    }
    const data = bytes.subarray(dataStart, dataStart + header.size);
    offset = dataStart + Math.ceil(header.size / BLOCK) * BLOCK;
    const metadata = tarMetadata(header.type, data);
    if (metadata !== undefined) {
      pendingName = metadata.name ?? pendingName;
      continue;
    }
    entries.push({ name: pendingName ?? header.name, type: header.type, data });
    pendingName = undefined;
  }
  if (offset < bytes.length) {
    throw new InputFileError({
      file,
      problem: `truncated tar: ${bytes.length - offset} stray bytes after the last complete block`,
    });
  }
  return entries;
}

/**
 * The single regular-file member of a tar archive.
 *
 * @throws InputFileError when the archive holds no regular file or more than one (naming them),
 *   or is corrupt or truncated
 */
export function singleTarMember(
  bytes: Uint8Array,
  file: string,
): { bytes: Uint8Array; member: string } {
  const entries = tarEntries(bytes, file);
  const files = entries.filter((entry) => entry.type === '0' || entry.type === '\0');
  if (files.length === 0) {
    const others = entries.map((entry) => entry.name).join(', ');
    throw new InputFileError({
      file,
      problem: `tar holds no regular file${others === '' ? '' : ` (only ${others})`}`,
    });
  }
  if (files.length > 1) {
    throw new InputFileError({
      file,
      problem: `tar holds ${files.length} files, expected one: ${files.map((entry) => entry.name).join(', ')}`,
    });
  }
  const [only] = files;
  return { bytes: only.data, member: only.name };
}
