import { InputFileError } from '@partonfit/core';
import { readUint32, xxhash32 } from './xxhash32.js';

/**
 * Decoding of the LZ4 frame format (the container `lz4_flex::frame` and the `lz4` command write,
 * magic 04 22 4D 18) and of the LZ4 block format inside it, from their published specifications.
 *
 * @packageDocumentation
 */

/** The first four bytes of an LZ4 frame (0x184D2204 little-endian). */
export const LZ4_FRAME_MAGIC = 0x184d2204;

const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const BLOCK_MAX_SIZES: Readonly<Partial<Record<number, number>>> = {
  4: 64 * 1024,
  5: 256 * 1024,
  6: 1024 * 1024,
  7: 4 * 1024 * 1024,
};
const MIN_MATCH = 4;

/** Whether `bytes` start with the LZ4 frame magic number. */
export function isLz4Frame(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && readUint32(bytes, 0) === LZ4_FRAME_MAGIC;
}

/** A growing output buffer: matches may reach back into earlier blocks of the frame. */
class Output {
  bytes = new Uint8Array(1 << 16);
  length = 0;

  reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  append(source: Uint8Array): void {
    this.reserve(source.length);
    this.bytes.set(source, this.length);
    this.length += source.length;
  }
}

interface FrameReader {
  readonly input: Uint8Array;
  offset: number;
  readonly file: string;
}

function frameError(reader: FrameReader, problem: string): InputFileError {
  return new InputFileError({ file: reader.file, key: 'LZ4 frame', problem });
}

function need(reader: FrameReader, count: number, what: string): void {
  if (reader.offset + count > reader.input.length) {
    throw frameError(
      reader,
      `truncated: ${what} needs ${count} bytes at byte ${reader.offset}, ` +
        `${reader.input.length - reader.offset} remain`,
    );
  }
}

/** Reads an LZ4 length extension: bytes of 255 continue, the first smaller byte ends it. */
function extendedLength(block: Uint8Array, start: number, position: { at: number }): number {
  let length = start;
  let byte: number;
  do {
    if (position.at >= block.length) return -1;
    byte = block[position.at++];
    length += byte;
  } while (byte === 255);
  return length;
}

/**
 * Decodes one LZ4 block (sequences of literals and matches) onto the end of `output`.
 * `windowStart` is the first output byte a match may copy from (the block's own start for
 * independent blocks, the frame's start for linked ones).
 */
function decodeBlock(
  reader: FrameReader,
  block: Uint8Array,
  output: Output,
  windowStart: number,
  maxSize: number,
): void {
  const blockStart = output.length;
  const position = { at: 0 };
  const corrupt = (problem: string): InputFileError =>
    frameError(reader, `corrupt block ending at byte ${reader.offset}: ${problem}`);
  while (position.at < block.length) {
    const token = block[position.at++];
    let literals = token >>> 4;
    if (literals === 15) literals = extendedLength(block, 15, position);
    if (literals < 0 || position.at + literals > block.length) {
      throw corrupt('literals run past the end of the block');
    }
    if (output.length - blockStart + literals > maxSize) {
      throw corrupt(`decompresses to more than the frame's block size ${maxSize}`);
    }
    output.append(block.subarray(position.at, position.at + literals));
    position.at += literals;
    if (position.at === block.length) return;
    if (position.at + 2 > block.length) throw corrupt('a match offset is cut off');
    const distance = block[position.at] | (block[position.at + 1] << 8);
    position.at += 2;
    let matchLength = token & 15;
    if (matchLength === 15) matchLength = extendedLength(block, 15, position);
    if (matchLength < 0) throw corrupt('a match length is cut off');
    matchLength += MIN_MATCH;
    if (distance === 0 || output.length - distance < windowStart) {
      throw corrupt(`match offset ${distance} points before the start of the data`);
    }
    if (output.length - blockStart + matchLength > maxSize) {
      throw corrupt(`decompresses to more than the frame's block size ${maxSize}`);
    }
    output.reserve(matchLength);
    const bytes = output.bytes;
    let from = output.length - distance;
    const end = output.length + matchLength;
    for (let to = output.length; to < end; to++) bytes[to] = bytes[from++];
    output.length = end;
  }
  throw corrupt('the block ends without literals');
}

/** Decodes one frame starting at `reader.offset`, leaving the offset after it. */
function decodeFrame(reader: FrameReader, output: Output): void {
  need(reader, 7, 'the frame header');
  const { input } = reader;
  const headerStart = reader.offset + 4;
  const flags = input[headerStart];
  const blockDescriptor = input[headerStart + 1];
  if (flags >>> 6 !== 1) {
    throw frameError(reader, `unsupported LZ4 frame version ${flags >>> 6} (expected 1)`);
  }
  if ((flags & 0x02) !== 0 || (blockDescriptor & 0x8f) !== 0) {
    throw frameError(reader, 'reserved bits are set in the frame descriptor');
  }
  const independent = (flags & 0x20) !== 0;
  const blockChecksums = (flags & 0x10) !== 0;
  const contentSizePresent = (flags & 0x08) !== 0;
  const contentChecksum = (flags & 0x04) !== 0;
  const dictionary = (flags & 0x01) !== 0;
  const maxSize = BLOCK_MAX_SIZES[(blockDescriptor >>> 4) & 7];
  if (maxSize === undefined) {
    throw frameError(reader, `invalid block maximum size code ${(blockDescriptor >>> 4) & 7}`);
  }
  if (dictionary) throw frameError(reader, 'frames that need a dictionary are not supported');
  const descriptorLength = 2 + (contentSizePresent ? 8 : 0);
  reader.offset = headerStart;
  need(reader, descriptorLength + 1, 'the frame descriptor');
  const headerChecksum =
    (xxhash32(input, headerStart, headerStart + descriptorLength) >>> 8) & 0xff;
  if (headerChecksum !== input[headerStart + descriptorLength]) {
    throw frameError(reader, 'wrong frame header checksum (corrupt header)');
  }
  const contentSize = contentSizePresent
    ? readUint32(input, headerStart + 2) + readUint32(input, headerStart + 6) * 2 ** 32
    : undefined;
  reader.offset = headerStart + descriptorLength + 1;

  const frameStart = output.length;
  for (;;) {
    need(reader, 4, 'a block size');
    const word = readUint32(input, reader.offset);
    reader.offset += 4;
    if (word === 0) break;
    const size = word & 0x7fffffff;
    const stored = word >>> 31 === 1;
    if (size > maxSize) {
      throw frameError(reader, `block size ${size} exceeds the frame's maximum ${maxSize}`);
    }
    need(reader, size + (blockChecksums ? 4 : 0), 'a block');
    const block = input.subarray(reader.offset, reader.offset + size);
    reader.offset += size;
    if (blockChecksums) {
      if (xxhash32(block) !== readUint32(input, reader.offset)) {
        throw frameError(reader, `wrong block checksum before byte ${reader.offset}`);
      }
      reader.offset += 4;
    }
    if (stored) output.append(block);
    else decodeBlock(reader, block, output, independent ? output.length : frameStart, maxSize);
  }
  if (contentChecksum) {
    need(reader, 4, 'the content checksum');
    const expected = readUint32(input, reader.offset);
    if (xxhash32(output.bytes, frameStart, output.length) !== expected) {
      throw frameError(reader, 'wrong content checksum (the decompressed data is corrupt)');
    }
    reader.offset += 4;
  }
  if (contentSize !== undefined && contentSize !== output.length - frameStart) {
    throw frameError(
      reader,
      `the frame declares ${contentSize} bytes but holds ${output.length - frameStart}`,
    );
  }
}

/**
 * Decompresses an LZ4 frame (or several concatenated, skipping skippable frames), as written by
 * `lz4_flex::frame::FrameEncoder` (PineAPPL's `.pineappl.lz4`) or the `lz4` command. Header,
 * block and content checksums are verified where the frame has them.
 *
 * @param bytes - the compressed bytes, starting with {@link LZ4_FRAME_MAGIC}
 * @param file - the file they came from, for error messages
 * @returns the decompressed bytes
 * @throws InputFileError - naming `file` (key `LZ4 frame`) for a wrong magic number, a truncated
 *   frame, a corrupt block, a wrong checksum, or unsupported frame features (dictionaries)
 */
export function decodeLz4Frame(bytes: Uint8Array, file: string): Uint8Array {
  const reader: FrameReader = { input: bytes, offset: 0, file };
  if (!isLz4Frame(bytes)) {
    throw frameError(reader, 'not an LZ4 frame (the magic number 04 22 4D 18 is missing)');
  }
  const output = new Output();
  while (reader.offset < bytes.length) {
    need(reader, 4, 'a frame magic number');
    const magic = readUint32(bytes, reader.offset);
    if (magic === LZ4_FRAME_MAGIC) {
      decodeFrame(reader, output);
    } else if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      need(reader, 8, 'a skippable frame header');
      const size = readUint32(bytes, reader.offset + 4);
      reader.offset += 8;
      need(reader, size, 'a skippable frame');
      reader.offset += size;
    } else {
      throw frameError(reader, `unexpected bytes after the frame at byte ${reader.offset}`);
    }
  }
  return output.bytes.slice(0, output.length);
}
