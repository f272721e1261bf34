import { InvalidArgumentError } from '@partonfit/core';

/** A value of a free-form key of an LHAPDF `.info` file or member header. */
export type LhapdfYamlValue = string | number | boolean | readonly (string | number)[];

/** Words YAML 1.1 or 1.2 reads as booleans or null when unquoted. */
const KEYWORDS = new Set(['true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n', 'null']);

/** The width past which a flow list continues on the next line, as PyYAML's emitter does. */
const LINE_WIDTH = 80;

/**
 * A string as a YAML scalar: plain when that is unambiguous (a word or sentence of letters,
 * digits and `_ .,;()=+-/`, starting with a letter, not a YAML keyword), else double-quoted with
 * JSON escapes, which YAML reads the same.
 */
export function yamlString(text: string): string {
  const plain =
    /^[A-Za-z][\w .,;()=+\-/]*$/.test(text) &&
    !text.endsWith(' ') &&
    !KEYWORDS.has(text.toLowerCase());
  return plain ? text : JSON.stringify(text);
}

/**
 * A number exactly (the shortest decimal that reads back as the same double), in a form that
 * YAML 1.1 and 1.2 both read as a number: integers without exponent, `1e-9` as `1.0e-9`.
 */
export function yamlExactNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return value.toFixed(0);
  const text = String(value);
  const split = text.indexOf('e');
  if (split === -1 || text.slice(0, split).includes('.')) return text;
  return `${text.slice(0, split)}.0${text.slice(split)}`;
}

/** A free-form value as YAML: strings and numbers as scalars, lists in flow style. */
export function yamlValue(value: LhapdfYamlValue): string[] | string {
  if (typeof value === 'string') return yamlString(value);
  if (typeof value === 'number') return yamlExactNumber(value);
  if (typeof value === 'boolean') return String(value);
  return value.map((item) => (typeof item === 'string' ? yamlString(item) : yamlExactNumber(item)));
}

/**
 * The lines of `key: value`; a list is written in flow style, `key: [a, b, …]`, continued on lines
 * indented by two spaces once a line passes 80 characters (PyYAML's layout, as in NNPDF sets).
 */
export function yamlEntry(key: string, value: string | readonly string[]): string[] {
  if (typeof value === 'string') return [`${key}: ${value}`];
  const lines: string[] = [];
  let line = `${key}: [`;
  value.forEach((item, i) => {
    if (i === 0) line += item;
    else if (line.length + 1 > LINE_WIDTH) {
      lines.push(`${line},`);
      line = `  ${item}`;
    } else line += `, ${item}`;
  });
  lines.push(`${line}]`);
  return lines;
}

/**
 * Checks a free-form key and value and returns the value's YAML.
 *
 * @param argument - the argument's name for errors, e.g. `info.extra`
 * @throws InvalidArgumentError for a key that is not a word (`[A-Za-z_][A-Za-z0-9_]*`) or a
 *   value that is not a finite number, a string, a boolean or a list of those
 */
export function checkedYamlValue(argument: string, key: string, value: unknown): string | string[] {
  if (!/^[A-Za-z_]\w*$/.test(key)) {
    throw new InvalidArgumentError({
      argument,
      problem: `key '${key}' is not a word of letters, digits and '_'`,
    });
  }
  const scalar = (item: unknown) =>
    typeof item === 'string' || (typeof item === 'number' && Number.isFinite(item));
  const valid =
    scalar(value) || typeof value === 'boolean' || (Array.isArray(value) && value.every(scalar));
  if (!valid) {
    throw new InvalidArgumentError({
      argument: `${argument}.${key}`,
      problem: `expected a finite number, a string, a boolean or a list of numbers and strings, got ${String(value)}`,
    });
  }
  return yamlValue(value as LhapdfYamlValue);
}
