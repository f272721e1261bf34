import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputFileError } from '../errors/input-file-error.js';
import { isMapping } from '../validate/is-mapping.js';

/** hyperopt's trial states (`hyperopt.base.JOB_STATE_*`): only `DONE` trials have a result. */
export const TRIAL_STATES = { new: 0, running: 1, done: 2, error: 3, cancelled: 4 } as const;

/** One trial of a hyperparameter scan, as a `tries.json` records it. */
export interface HyperscanTrial {
  /** hyperopt's trial id. */
  readonly tid: number;
  /** hyperopt's state: 2 (`DONE`) for a finished trial (see {@link TRIAL_STATES}). */
  readonly state: number;
  /** `ok`, or `fail` for a trial above the k-fold threshold (its loss is then penalised). */
  readonly status: string;
  /** The trial's loss (lower is better); NaN when the file holds none. */
  readonly loss: number;
  /**
   * The sampled settings (`misc.space_vals`): the scan runcard's whole `parameters` section with
   * the sampled values in place, e.g. `{ nodes_per_layer: [32, 27, 8], optimizer: {
   * optimizer_name: 'Nadam', learning_rate: 2.3e-4, clipnorm: 1.2e-6 }, epochs: 17000, … }`.
   */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** When the trial started and was last updated (hyperopt's `book_time`, `refresh_time`). */
  readonly bookTime: string | undefined;
  readonly refreshTime: string | undefined;
}

/** A scan's `tries.json`, read. */
export interface HyperscanTries {
  /** The file it was read from. */
  readonly file: string;
  /** Every trial, in the file's order. */
  readonly trials: readonly HyperscanTrial[];
}

/**
 * Where a scan folder keeps its trials, in the order they are looked for: the folder's own
 * `tries.json`, partonfit's `hyperopt/tries.json`, and n3fit's `nnfit/replica_1/tries.json`.
 */
export const TRIES_FILE_LOCATIONS = [
  'tries.json',
  join('hyperopt', 'tries.json'),
  join('nnfit', 'replica_1', 'tries.json'),
] as const;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The `tries.json` a scan path names: the file itself, or the first of
 * {@link TRIES_FILE_LOCATIONS} inside the folder; undefined when there is none.
 */
export async function findTriesFile(path: string): Promise<string | undefined> {
  if (await isFile(path)) return path;
  for (const location of TRIES_FILE_LOCATIONS) {
    const candidate = join(path, location);
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Reads a scan's `tries.json`: partonfit's, or upstream n3fit's (hyperopt's trial documents as
 * n3fit's `FileTrials` writes them with Python's `json.dumps`).
 *
 * Python writes what strict JSON cannot hold as bare `NaN`, `Infinity` and `-Infinity`, and a scan
 * run without MongoDB writes numpy numbers as strings (`"0.5"`); both are read as numbers.
 *
 * @throws InputFileError naming the file (and the trial, as `key`) when it cannot be read, is
 *   not JSON, is not a list of trials, or a finished trial lacks its `misc.space_vals`
 */
export async function readTriesFile(file: string): Promise<HyperscanTries> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InputFileError({ file, problem: `cannot read the scan's trials (${String(cause)})` });
  }
  return parseTries(text, file);
}

/**
 * Parses the text of a `tries.json` (see {@link readTriesFile}).
 *
 * @param file - the file the text came from, for error messages
 */
export function parseTries(text: string, file: string): HyperscanTries {
  let document: unknown;
  try {
    document = JSON.parse(withPythonNumbersQuoted(text), (_, value: unknown) =>
      typeof value === 'string' && PYTHON_NUMBERS.has(value) ? PYTHON_NUMBERS.get(value) : value,
    );
  } catch (cause) {
    throw new InputFileError({
      file,
      problem: `not JSON: ${cause instanceof Error ? cause.message : String(cause)}`,
    });
  }
  if (!Array.isArray(document)) {
    throw new InputFileError({ file, problem: 'expected a list of trials (hyperopt documents)' });
  }
  return { file, trials: document.map((entry, index) => trialOf(entry, index, file)) };
}

/** Sentinels for Python's bare non-finite numbers, as JSON strings no real file holds. */
const PYTHON_NUMBERS = new Map<string, number>([
  ['\u0000NaN', Number.NaN],
  ['\u0000Infinity', Number.POSITIVE_INFINITY],
  ['\u0000-Infinity', Number.NEGATIVE_INFINITY],
]);

/** The text with Python's bare `NaN`, `Infinity`, `-Infinity` (outside strings) as sentinels. */
function withPythonNumbersQuoted(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      out += char;
      if (char === '\\') out += text[++i] ?? '';
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    const token = ['-Infinity', 'Infinity', 'NaN'].find((name) => text.startsWith(name, i));
    if (token === undefined) {
      out += char;
      continue;
    }
    out += JSON.stringify(`\u0000${token}`);
    i += token.length - 1;
  }
  return out;
}

/** A number written as a number or, by a scan without MongoDB, as a numpy string. */
function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

function trialOf(entry: unknown, index: number, file: string): HyperscanTrial {
  const fail = (key: string, problem: string) =>
    new InputFileError({ file, key: `[${index}]${key}`, problem });
  if (!isMapping(entry)) throw fail('', 'expected a trial (a mapping)');
  const tid = numberOf(entry.tid);
  const state = numberOf(entry.state);
  if (!Number.isInteger(tid)) throw fail('.tid', 'expected the trial id, an integer');
  if (!Number.isInteger(state)) throw fail('.state', 'expected the trial state, an integer');
  const result = isMapping(entry.result) ? entry.result : {};
  const misc = isMapping(entry.misc) ? entry.misc : {};
  const spaceVals = misc.space_vals;
  if (state === TRIAL_STATES.done && !isMapping(spaceVals)) {
    throw fail(
      '.misc.space_vals',
      `trial ${tid} is finished but its sampled settings are missing (n3fit writes them from 4.0 on)`,
    );
  }
  return {
    tid,
    state,
    status: typeof result.status === 'string' ? result.status : 'unknown',
    loss: numberOf(result.loss),
    parameters: isMapping(spaceVals) ? spaceVals : {},
    bookTime: typeof entry.book_time === 'string' ? entry.book_time : undefined,
    refreshTime: typeof entry.refresh_time === 'string' ? entry.refresh_time : undefined,
  };
}
