import { createHash } from 'node:crypto';
import { formatKeyPath } from './key-path.js';
import type { Runcard } from './runcard.js';

/**
 * JSON with the keys of every object sorted (entries that are `undefined` left out), so that
 * equal settings give equal text whatever order their keys were written in.
 *
 * @example
 * ```ts
 * import { canonicalJson } from '@partonfit/core';
 *
 * console.log(canonicalJson({ b: [1, { d: 2, c: 3 }], a: 'x' })); // {"a":"x","b":[1,{"c":3,"d":2}]}
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The settings that decide how a runcard fits: all of them but the `evolution` section (left
 * out as `undefined` entries are by {@link canonicalJson}), which only tells `partonfit evolve`
 * what to do with the finished fit: adding it to the runcard of a fit must not make the fit
 * another one.
 */
function fitSettings(runcard: Runcard): Runcard {
  return { ...runcard, evolution: undefined };
}

/**
 * SHA-256 (hexadecimal) of a runcard's fit settings: every validated setting (defaults filled
 * in) but the `evolution` section, independent of the order of keys, comments and formatting in
 * the file. Two runcards with the same digest fit the same way.
 *
 * @example
 * ```ts
 * import { loadRuncard, runcardDigest } from '@partonfit/core';
 *
 * const { runcard } = await loadRuncard('examples/closure.yml');
 * console.log(runcardDigest(runcard).length); // 64
 * ```
 */
export function runcardDigest(runcard: Runcard): string {
  return createHash('sha256')
    .update(canonicalJson(fitSettings(runcard)))
    .digest('hex');
}

/** A setting two runcards give different values, as {@link runcardDifference} reports it. */
export interface RuncardDifference {
  /** The setting's key path, e.g. `parameters.optimizer.learning_rate` or `dataset_inputs[2]`. */
  readonly keyPath: string;
  /** Its value in the first runcard, as JSON (`null` when absent). */
  readonly first: string;
  /** Its value in the second runcard, as JSON (`null` when absent). */
  readonly second: string;
}

function firstDifference(
  first: unknown,
  second: unknown,
  path: PropertyKey[],
): RuncardDifference | undefined {
  if (canonicalJson(first) === canonicalJson(second)) return undefined;
  const bothObjects =
    first !== null &&
    second !== null &&
    typeof first === 'object' &&
    typeof second === 'object' &&
    Array.isArray(first) === Array.isArray(second) &&
    (!Array.isArray(first) || first.length === (second as unknown[]).length);
  if (bothObjects) {
    const keys = [...new Set([...Object.keys(first), ...Object.keys(second)])].sort();
    for (const key of keys) {
      const step = Array.isArray(first) ? Number(key) : key;
      const found = firstDifference(
        (first as Record<string, unknown>)[key],
        (second as Record<string, unknown>)[key],
        [...path, step],
      );
      if (found !== undefined) return found;
    }
  }
  return {
    keyPath: path.length === 0 ? '(the whole runcard)' : formatKeyPath(path),
    first: canonicalJson(first),
    second: canonicalJson(second),
  };
}

/**
 * The first fit setting (in sorted key order, depth first) in which two runcards differ, or
 * undefined when they fit the same way (same {@link runcardDigest}).
 */
export function runcardDifference(first: Runcard, second: Runcard): RuncardDifference | undefined {
  return firstDifference(fitSettings(first), fitSettings(second), []);
}
