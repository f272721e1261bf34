import type { Document } from 'yaml';

/** The most aliases a document may expand: far more than any runcard or data file uses. */
const MAX_ALIAS_COUNT = 100;

/**
 * The plain JavaScript value of a parsed YAML document, or the `Error` that stops it being one —
 * an alias of an anchor never set, or so many aliases that expanding them would blow up (YAML's
 * "billion laughs") — for the caller to turn into its own typed error naming the file.
 */
export function plainYamlValue(document: Document): unknown {
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
}
