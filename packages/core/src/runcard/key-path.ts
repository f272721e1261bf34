/** A path into a runcard: mapping keys and sequence indices. */
export type KeyPath = readonly (string | number)[];

/** `parameters.nodes_per_layer[2]` style. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment, i) => {
      if (typeof segment === 'number') return `[${segment}]`;
      const name = String(segment);
      return i === 0 ? name : `.${name}`;
    })
    .join('');
}

/** The value at `path` in a plain parsed document, or undefined. */
export function valueAt(document: unknown, path: readonly PropertyKey[]): unknown {
  let value = document;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/**
 * Every concrete path matching `pattern`, a dotted path where `[]` stands for each item of a
 * list (`dataset_inputs[].sys`), whose last key is present in `document`.
 */
export function matchingPaths(document: unknown, pattern: string): KeyPath[] {
  const segments = pattern.replaceAll('[]', '.[]').split('.');
  let paths: KeyPath[] = [[]];
  for (const segment of segments) {
    paths = paths.flatMap((path) => {
      const parent = valueAt(document, path);
      if (segment === '[]') {
        return Array.isArray(parent) ? parent.map((_, i) => [...path, i]) : [];
      }
      const isMapping = parent !== null && typeof parent === 'object' && !Array.isArray(parent);
      return isMapping && Object.hasOwn(parent, segment) ? [[...path, segment]] : [];
    });
  }
  return paths;
}

/** A short rendering of a runcard value for messages: `-3`, `'tanh'`, `[1, 2]`, `a mapping`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null (an empty value)';
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) {
    const items = value.map((item) =>
      item !== null && typeof item === 'object' ? '…' : describeValue(item),
    );
    return `[${items.join(', ')}]`;
  }
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}
