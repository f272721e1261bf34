/**
 * xxHash32, the checksum of the LZ4 frame format (header, block and content checksums), from its
 * published specification.
 *
 * @packageDocumentation
 */

const PRIME1 = 0x9e3779b1;
const PRIME2 = 0x85ebca77;
const PRIME3 = 0xc2b2ae3d;
const PRIME4 = 0x27d4eb2f;
const PRIME5 = 0x165667b1;

function rotateLeft(value: number, bits: number): number {
  return ((value << bits) | (value >>> (32 - bits))) >>> 0;
}

function round(accumulator: number, lane: number): number {
  const sum = (accumulator + Math.imul(lane, PRIME2)) >>> 0;
  return Math.imul(rotateLeft(sum, 13), PRIME1) >>> 0;
}

/** The little-endian unsigned 32-bit word at `offset`. */
export function readUint32(bytes: Uint8Array, offset: number): number {
  return (
    (bytes[offset] |
      (bytes[offset + 1] << 8) |
      (bytes[offset + 2] << 16) |
      (bytes[offset + 3] << 24)) >>>
    0
  );
}

/**
 * The 32-bit xxHash of `bytes[start, end)` with `seed` (0 in LZ4 frames), as an unsigned integer.
 */
export function xxhash32(bytes: Uint8Array, start = 0, end = bytes.length, seed = 0): number {
  let offset = start;
  let hash: number;
  if (end - start >= 16) {
    let v1 = (seed + PRIME1 + PRIME2) >>> 0;
    let v2 = (seed + PRIME2) >>> 0;
    let v3 = seed >>> 0;
    let v4 = (seed - PRIME1) >>> 0;
    for (; offset + 16 <= end; offset += 16) {
      v1 = round(v1, readUint32(bytes, offset));
      v2 = round(v2, readUint32(bytes, offset + 4));
      v3 = round(v3, readUint32(bytes, offset + 8));
      v4 = round(v4, readUint32(bytes, offset + 12));
    }
    hash = (rotateLeft(v1, 1) + rotateLeft(v2, 7) + rotateLeft(v3, 12) + rotateLeft(v4, 18)) >>> 0;
  } else {
    hash = (seed + PRIME5) >>> 0;
  }
  hash = (hash + (end - start)) >>> 0;
  for (; offset + 4 <= end; offset += 4) {
    hash = (hash + Math.imul(readUint32(bytes, offset), PRIME3)) >>> 0;
    hash = Math.imul(rotateLeft(hash, 17), PRIME4) >>> 0;
  }
  for (; offset < end; offset++) {
    hash = (hash + Math.imul(bytes[offset], PRIME5)) >>> 0;
    hash = Math.imul(rotateLeft(hash, 11), PRIME1) >>> 0;
  }
  hash ^= hash >>> 15;
  hash = Math.imul(hash, PRIME2) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, PRIME3) >>> 0;
  hash ^= hash >>> 16;
  return hash >>> 0;
}
