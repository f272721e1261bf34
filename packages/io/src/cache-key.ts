import { createHash } from 'node:crypto';
import { canonicalJson } from '@partonfit/core';

/**
 * The key of a cached result: the first 24 hexadecimal digits of the SHA-256 of everything that
 * determines it, as canonical JSON (object keys sorted, so the order they were written in does
 * not matter). Equal determinants give equal keys, and any change gives another. Give typed
 * arrays as plain arrays (`Array.from`).
 *
 * @param determinants - what the cached result is a function of, including a format version
 *
 * @example
 * ```ts
 * import { cacheKey } from '@partonfit/io';
 *
 * console.log(cacheKey(['format-1', { q0: 1.65 }]).length); // 24
 * ```
 */
export function cacheKey(determinants: unknown): string {
  return createHash('sha256').update(canonicalJson(determinants)).digest('hex').slice(0, 24);
}
