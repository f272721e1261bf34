import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { format, resolveConfig } from 'prettier';
import { benchResultSchema, RESULT_SCHEMA_VERSION, type BenchResult } from './result-schema.js';

/** `<folder>/<date>-<backend>.json`. */
export function resultFile(folder: string, date: string, backend: string): string {
  return join(folder, `${date}-${backend}.json`);
}

/** `<folder>/<date>.md`: the tables of every backend measured that day. */
export function markdownFile(folder: string, date: string): string {
  return join(folder, `${date}.md`);
}

/**
 * Checks a parsed result against the schema.
 *
 * @param file - where it was read from (or is about to be written), for the message
 * @throws InputFileError - naming the file and the first offending key
 */
export function validateBenchResult(value: unknown, file: string): BenchResult {
  const parsed = benchResultSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputFileError({
      file,
      key: issue.path.length === 0 ? undefined : issue.path.join('.'),
      problem: `not a partonfit benchmark result: ${issue.message}`,
    });
  }
  return parsed.data;
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InputFileError({ file, problem: `cannot read: ${String(cause)}`, cause });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new InputFileError({ file, problem: `not JSON: ${String(cause)}`, cause });
  }
}

/** Reads and validates a result file. */
export async function readBenchResult(file: string): Promise<BenchResult> {
  return validateBenchResult(await readJson(file), file);
}

/**
 * The results of `date` in `folder`, one per backend, in file-name order. A file written by
 * another version of the benchmark (another `schemaVersion`) is left out and reported to
 * `leftOut`, so that measuring one backend again never fails on another's older file.
 *
 * @throws InputFileError - for a file that is not a result of any version
 */
export async function readResultsOfDate(
  folder: string,
  date: string,
  leftOut: (file: string, schemaVersion: number) => void = () => undefined,
): Promise<BenchResult[]> {
  const names = (await readdir(folder)).filter(
    (name) => name.startsWith(`${date}-`) && name.endsWith('.json'),
  );
  const results: BenchResult[] = [];
  for (const name of names.sort()) {
    const file = join(folder, name);
    const value = await readJson(file);
    const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
    if (typeof version === 'number' && version !== RESULT_SCHEMA_VERSION) {
      leftOut(file, version);
      continue;
    }
    results.push(validateBenchResult(value, file));
  }
  return results;
}

/**
 * Writes text formatted as the repository's prettier would, atomically (write, then rename), and
 * returns the formatted text.
 */
export async function writeFormatted(file: string, text: string): Promise<string> {
  const options = (await resolveConfig(file)) ?? {};
  const formatted = await format(text, { ...options, filepath: file });
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, formatted);
  await rename(temporary, file);
  return formatted;
}

/** Validates and writes a result as JSON. */
export async function writeBenchResult(file: string, result: BenchResult): Promise<void> {
  validateBenchResult(result, file);
  await writeFormatted(file, JSON.stringify(result));
}
