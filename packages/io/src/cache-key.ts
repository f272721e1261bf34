import { createHash } from 'node:crypto';

/**
 * The key of a cached result: the first 24 hexadecimal digits of the SHA-256 of everything that
 * determines it, as JSON. Give the determinants in a fixed order (an array, or objects built with
 * their keys in one order): equal determinants give equal keys, and any change gives another.
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
  return createHash('sha256').update(JSON.stringify(determinants)).digest('hex').slice(0, 24);
}
