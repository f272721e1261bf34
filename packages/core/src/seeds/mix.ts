/** The 32-bit golden-ratio increment 0x9E3779B9 (⌊2³²/φ⌋), used to space replicas and states. */
export const GOLDEN_GAMMA = 0x9e3779b9;

/**
 * MurmurHash3's 32-bit finaliser: a bijection of the unsigned 32-bit integers whose every input
 * bit affects every output bit. Returns an unsigned 32-bit integer.
 */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
