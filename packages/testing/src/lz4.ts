/**
 * LZ4 frames written by hand for tests of the LZ4 reader (`@partonfit/io`) and of the formats
 * that wrap arrays in LZ4 (PineAPPL grids, EKO files).
 *
 * @packageDocumentation
 */
import { xxhash32 } from '@partonfit/io';

/** The largest block a frame with block-size code 4 may hold (64 KiB). */
const MAX_BLOCK = 64 * 1024;

/**
 * An LZ4 frame with no checksums or content size around `blocks`, each `{ stored }` (kept as is,
 * the block size's high bit set) or `{ compressed }` (raw LZ4 sequences), linked or independent.
 */
export function lz4Frame(
  blocks: readonly ({ stored: Uint8Array } | { compressed: Uint8Array })[],
  options: { independent: boolean },
): Uint8Array {
  const flags = 0x40 | (options.independent ? 0x20 : 0);
  const descriptor = Uint8Array.of(flags, 0x40);
  const headerChecksum = (xxhash32(descriptor) >>> 8) & 0xff;
  const parts: number[] = [0x04, 0x22, 0x4d, 0x18, ...descriptor, headerChecksum];
  for (const block of blocks) {
    const data = 'stored' in block ? block.stored : block.compressed;
    const word = (data.length | ('stored' in block ? 0x80000000 : 0)) >>> 0;
    parts.push(word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xff, word >>> 24, ...data);
  }
  parts.push(0, 0, 0, 0);
  return Uint8Array.from(parts);
}

/** `bytes` as an LZ4 frame of stored (uncompressed) blocks of at most 64 KiB. */
export function storedLz4Frame(bytes: Uint8Array): Uint8Array {
  const blocks: { stored: Uint8Array }[] = [];
  for (let start = 0; start < bytes.length; start += MAX_BLOCK)
    blocks.push({ stored: bytes.subarray(start, start + MAX_BLOCK) });
  return lz4Frame(blocks, { independent: true });
}
