import { InputFileError, plainYamlValue } from '@partonfit/core';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';

/** A YAML mapping read from an LHAPDF file, with the line of each top-level key. */
export interface YamlRecord {
  readonly file: string;
  readonly values: Readonly<Record<string, unknown>>;
  /** The 1-based file line of `key`, or undefined when the key is absent. */
  readonly lineOf: (key: string) => number | undefined;
}

/** Whether a YAML value holds NaN or an infinity (`.nan`, `.inf`, `1e999`), at any depth. */
function containsNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (Array.isArray(value)) return value.some(containsNonFinite);
  if (value !== null && typeof value === 'object')
    return Object.values(value).some(containsNonFinite);
  return false;
}

/**
 * Parses a YAML mapping (an LHAPDF `.info` file or a member file's header). Repeated keys are
 * allowed, the last one wins, as in LHAPDF.
 *
 * @param text - the YAML text, starting on the file's first line
 * @param file - the file, for error messages
 * @throws InputFileError with the line when the text is not YAML or not a mapping, or a value
 *   holds NaN or an infinity
 */
export function parseYamlRecord(text: string, file: string): YamlRecord {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line;
  if (document.errors.length > 0) {
    const [syntaxError] = document.errors;
    throw new InputFileError({
      file,
      line: lineAt(syntaxError.pos[0]),
      problem: `not valid YAML (${syntaxError.message.split('\n')[0]})`,
    });
  }
  const contents = document.contents;
  if (contents !== null && !isMap(contents)) {
    throw new InputFileError({ file, line: 1, problem: 'expected a YAML mapping of keys' });
  }
  const lines = new Map<string, number>();
  for (const pair of contents?.items ?? []) {
    if (isScalar(pair.key)) lines.set(String(pair.key.value), lineAt(pair.key.range[0]));
  }
  const value = plainYamlValue(document);
  if (value instanceof Error) {
    throw new InputFileError({ file, problem: `not valid YAML (${value.message})` });
  }
  const values = (value ?? {}) as Record<string, unknown>;
  for (const [key, entry] of Object.entries(values)) {
    if (containsNonFinite(entry)) {
      throw new InputFileError({ file, line: lines.get(key), key, problem: 'NaN or infinity' });
    }
  }
  return { file, values, lineOf: (key) => lines.get(key) };
}

function wrongType(record: YamlRecord, key: string, expected: string): InputFileError {
  return new InputFileError({
    file: record.file,
    line: record.lineOf(key),
    key,
    problem: `expected ${expected}, got ${JSON.stringify(record.values[key])}`,
  });
}

/** The number at `key`, undefined when absent. @throws InputFileError when not a number */
export function optionalNumber(record: YamlRecord, key: string): number | undefined {
  const value = record.values[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw wrongType(record, key, 'a number');
  return value;
}

/** The integer at `key`, undefined when absent. @throws InputFileError when not an integer */
export function optionalInteger(record: YamlRecord, key: string): number | undefined {
  const value = record.values[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw wrongType(record, key, 'an integer');
  }
  return value;
}

/** The string at `key` (numbers are turned to text), undefined when absent. */
export function optionalString(record: YamlRecord, key: string): string | undefined {
  const value = record.values[key];
  if (value === undefined) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw wrongType(record, key, 'a string');
  return value;
}

/** The list of integers at `key`, undefined when absent. */
export function optionalIntegers(record: YamlRecord, key: string): number[] | undefined {
  const value = record.values[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => Number.isSafeInteger(item))) {
    throw wrongType(record, key, 'a list of integers');
  }
  return value as number[];
}

/** Throws an InputFileError saying that the required `key` is missing. */
export function missingKey(record: YamlRecord, key: string): never {
  throw new InputFileError({ file: record.file, key, problem: 'required key is missing' });
}
