/**
 * Whether a parsed JSON or YAML value is a mapping of keys to values (an object, not an array or
 * null), for readers of documents whose shape is not known in advance.
 */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
