import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { InputFileError } from '@partonfit/core';
import { isTar, singleTarMember } from './tar.js';

/** The bytes of an input file after unpacking, and the tar member they came from. */
export interface InputBytes {
  /** The file's content: decompressed, and taken out of its tar archive if it was one. */
  readonly bytes: Uint8Array;
  /** The name of the tar member as stored in the archive; undefined when there was no tar. */
  readonly member: string | undefined;
}

/** The text of an input file after unpacking, and the tar member it came from. */
export interface InputText {
  /** The file's content decoded as UTF-8. */
  readonly text: string;
  /** The name of the tar member as stored in the archive; undefined when there was no tar. */
  readonly member: string | undefined;
}

/** Whether `bytes` start with the gzip magic number 1f 8b. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function gunzip(bytes: Uint8Array, file: string): Uint8Array {
  try {
    return gunzipSync(bytes);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const truncated = /unexpected end/i.test(reason);
    throw new InputFileError({
      file,
      problem: `${truncated ? 'truncated' : 'corrupt'} gzip data (${reason})`,
      cause,
    });
  }
}

/**
 * Unpacks bytes already in memory the way {@link readInputBytes} unpacks a file: gzip is
 * decompressed, and a tar archive (plain or gzip-compressed) must hold exactly one regular file,
 * whose bytes are returned. Anything else is returned unchanged.
 *
 * @param bytes - the raw content
 * @param file - the file the bytes came from, for error messages
 * @throws InputFileError for truncated or corrupt gzip data, a corrupt or truncated tar, or a tar
 *   with no regular file or more than one
 */
export function unpackInputBytes(bytes: Uint8Array, file: string): InputBytes {
  const plain = isGzip(bytes) ? gunzip(bytes, file) : bytes;
  if (!isTar(plain)) return { bytes: plain, member: undefined };
  return singleTarMember(plain, file);
}

/**
 * Reads an input file that may be plain, gzip-compressed (magic 1f 8b), a POSIX/GNU tar archive
 * holding one regular file (magic `ustar` at byte 257), or a gzip-compressed tar — the form in
 * which NNPDF's server ships FK tables (`theory_<ID>/fastkernel/FK_<SET>.dat` inside).
 *
 * @param file - the path of the file
 * @returns the unpacked bytes and, for a tar, the member name as stored in the archive
 * @throws InputFileError when the file cannot be read, or is truncated or corrupt gzip, or a tar
 *   with zero or several files (named) or truncated
 */
export async function readInputBytes(file: string): Promise<InputBytes> {
  let raw: Uint8Array;
  try {
    raw = await readFile(file);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new InputFileError({ file, problem: `cannot read the file (${reason})`, cause });
  }
  return unpackInputBytes(raw, file);
}

/**
 * Decodes unpacked input bytes (from {@link readInputBytes} or {@link unpackInputBytes}) as UTF-8
 * text.
 *
 * @param input - the bytes and their tar member
 * @param file - the file they came from, for error messages
 * @throws InputFileError when the content is not valid UTF-8
 */
export function inputBytesAsText(input: InputBytes, file: string): InputText {
  const { bytes, member } = input;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), member };
  } catch (cause) {
    throw new InputFileError({
      file,
      problem: `not UTF-8 text${member === undefined ? '' : ` (tar member ${member})`}`,
      cause,
    });
  }
}

/**
 * Reads an input file like {@link readInputBytes} and decodes it as UTF-8 text.
 *
 * @throws InputFileError as {@link readInputBytes} does, and when the content is not valid UTF-8
 */
export async function readInputText(file: string): Promise<InputText> {
  return inputBytesAsText(await readInputBytes(file), file);
}
