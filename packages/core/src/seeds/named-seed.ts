import { GOLDEN_GAMMA, mix32 } from './mix.js';

/** FNV-1a over the UTF-16 code units of `name`: a 32-bit fingerprint of the name. */
function fingerprint(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A seed for one named thing (a dataset, a group of datasets) drawn from a replica's seed:
 * `mix32(seed + mix32(fnv1a(name)) · 0x9E3779B9)`. Like upstream's hash of the dataset name added
 * to the replica's seed, it makes a dataset's random choices (its training/validation split)
 * depend only on the replica's seed and the dataset's own name — not on which other datasets
 * the fit includes, nor on their order.
 *
 * @param seed - a replica's seed, an unsigned 32-bit integer
 * @param name - the dataset or group name
 * @returns an unsigned 32-bit integer
 */
export function deriveNamedSeed(seed: number, name: string): number {
  return mix32(seed + Math.imul(mix32(fingerprint(name)), GOLDEN_GAMMA));
}
