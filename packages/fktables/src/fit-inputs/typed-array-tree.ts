import { InvalidArgumentError } from '@partonfit/core';

/** The typed arrays a cached tree may hold. */
export type TreeArray = Float64Array | Float32Array | Int32Array | Uint8Array;

/** A tree split into its typed arrays (by path) and a JSON skeleton that refers to them. */
export interface PackedTree {
  /**
   * The typed arrays, keyed by the slash-separated path in the tree where each first appears
   * (an array the tree holds at several places is stored once).
   */
  readonly arrays: ReadonlyMap<string, TreeArray>;
  /** The tree as JSON, each typed array replaced by `{ "$array": path }`. */
  readonly skeleton: string;
}

const ARRAY_REFERENCE = '$array';

function isTreeArray(value: unknown): value is TreeArray {
  return (
    value instanceof Float64Array ||
    value instanceof Float32Array ||
    value instanceof Int32Array ||
    value instanceof Uint8Array
  );
}

/**
 * Splits a tree of plain objects, arrays, numbers, strings and typed arrays into a JSON
 * skeleton and its typed arrays (properties that are `undefined` are left out, as JSON does), so
 * that the arrays can be stored as binary datasets (HDF5) and the rest as one attribute. An
 * array held at several places is stored once and unpacked as one array again.
 *
 * @throws InvalidArgumentError - for values JSON cannot hold (functions, maps, other typed
 *   arrays, non-finite numbers)
 */
export function packTree(tree: unknown): PackedTree {
  const arrays = new Map<string, TreeArray>();
  const pathOf = new Map<TreeArray, string>();
  const visit = (value: unknown, path: string): unknown => {
    if (isTreeArray(value)) {
      const first = pathOf.get(value);
      if (first !== undefined) return { [ARRAY_REFERENCE]: first };
      arrays.set(path, value);
      pathOf.set(value, path);
      return { [ARRAY_REFERENCE]: path };
    }
    if (Array.isArray(value)) return value.map((item, i) => visit(item, `${path}/${i}`));
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new InvalidArgumentError({ argument: path, problem: `cannot store ${value}` });
    }
    if (value === null || value === undefined) return value;
    if (['string', 'number', 'boolean'].includes(typeof value)) return value;
    if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, visit(item, `${path}/${key}`)]),
      );
    }
    throw new InvalidArgumentError({ argument: path, problem: 'cannot store this kind of value' });
  };
  const skeleton = JSON.stringify(visit(tree, 'tree'));
  return { arrays, skeleton };
}

/**
 * The inverse of {@link packTree}: the tree with its typed arrays put back.
 *
 * @throws InvalidArgumentError - if the skeleton refers to an array that is missing
 */
export function unpackTree(skeleton: string, arrays: ReadonlyMap<string, TreeArray>): unknown {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const reference = record[ARRAY_REFERENCE];
    if (typeof reference === 'string') {
      const array = arrays.get(reference);
      if (array === undefined) {
        throw new InvalidArgumentError({
          argument: reference,
          problem: 'array missing from the cache',
        });
      }
      return array;
    }
    return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, visit(item)]));
  };
  return visit(JSON.parse(skeleton) as unknown);
}
