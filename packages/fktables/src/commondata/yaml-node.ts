/**
 * The YAML tree the commondata readers walk: plain objects with the line each node starts on,
 * built by the fast block reader or converted from the general `yaml` parser's document.
 *
 * @packageDocumentation
 */

/** A scalar: its value by the YAML 1.2 core schema (string, number, boolean or null). */
export interface YamlScalar {
  readonly kind: 'scalar';
  readonly value: unknown;
  /** 1-based line where the node starts. */
  readonly line: number;
}

/** One `key: value` entry of a mapping. */
export interface YamlEntry {
  /** The key's value (a string for every well-formed commondata file). */
  readonly key: unknown;
  /** 1-based line of the key. */
  readonly keyLine: number;
  readonly value: YamlNode;
}

/** A mapping, entries in file order. */
export interface YamlMapping {
  readonly kind: 'mapping';
  readonly entries: readonly YamlEntry[];
  /** 1-based line where the node starts. */
  readonly line: number;
}

/** A sequence. */
export interface YamlSequence {
  readonly kind: 'sequence';
  readonly items: readonly YamlNode[];
  /** 1-based line where the node starts. */
  readonly line: number;
}

/** Any node. */
export type YamlNode = YamlScalar | YamlMapping | YamlSequence;
