import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { RuncardError, type RuncardIssue } from '../errors/runcard-error.js';
import { plainYamlValue } from '../yaml/plain-yaml-value.js';
import {
  findTriesFile,
  readTriesFile,
  TRIES_FILE_LOCATIONS,
  type HyperscanTries,
} from '../hyperscan/tries-file.js';
import type { RankedTrial } from '../hyperscan/trial-selection.js';
import { checkConsistency, checkDatasets } from './consistency.js';
import {
  expandParametersPerReplica,
  TRIAL_SET_PARAMETERS,
  trialIssue,
  type ExpandedParameters,
} from './parameters-per-replica.js';
import { describeValue, formatKeyPath, matchingPaths, valueAt, type KeyPath } from './key-path.js';
import type { DatasetInput, Runcard } from './runcard.js';
import { KNOWN_KEYS } from './schema-helpers.js';
import { datasetInputSchema, PARAMETER_KEYS, runcardSchema } from './schema.js';
import { SPECIAL_KEYS, type SpecialKey } from './special-keys.js';
import { suggestKey } from './suggest-key.js';

/** A runcard that passed validation, with the warnings to show before the fit starts. */
export interface ValidatedRuncard {
  /** The runcard with every default filled in. */
  readonly runcard: Runcard;
  /** Keys that were accepted but have no effect in partonfit. */
  readonly warnings: readonly RuncardIssue[];
  /** The file it was read from, when it was read from one. */
  readonly file: string | undefined;
  /**
   * With `trial_specs`: the scan's `tries.json` and the trial behind each entry of
   * `runcard.parameters_per_replica` (entry k, replica k + 1's, holds the trial of rank
   * (k + 1) mod N, as n3fit gives replica r the trial `r % number_of_trials`).
   */
  readonly hyperscan:
    { readonly file: string; readonly trials: readonly RankedTrial[] } | undefined;
}

/** Options of {@link loadRuncard}. */
export interface LoadRuncardOptions {
  /**
   * Where to read `trial_specs.hyperscan`'s trials instead of the path the runcard gives: the
   * copy a fit folder keeps (`<fit>/hyperscan`), whose `runcard.yml` names the original path.
   */
  readonly hyperscan?: string;
}

/** Options of {@link parseRuncard}. */
export interface ParseRuncardOptions {
  /** The file the text came from, for messages. */
  readonly file?: string | undefined;
  /**
   * The trials of the runcard's `trial_specs.hyperscan` ({@link readTriesFile}), or why they
   * could not be read; {@link loadRuncard} reads them.
   */
  readonly hyperscan?: HyperscanTries | { readonly problem: string } | undefined;
}

/**
 * Reads and validates a runcard file (see {@link parseRuncard}), with the trials of its
 * `trial_specs.hyperscan` when it has one: a scan folder (or its `tries.json`) absolute or
 * relative to the runcard's folder, whose trials are in the first of `tries.json`,
 * `hyperopt/tries.json` (partonfit's scans) or `nnfit/replica_1/tries.json` (n3fit's).
 *
 * @throws RuncardError - naming the file, and for each problem its key path and line (a scan
 *   folder without trials among them); InputFileError naming a `tries.json` that cannot be read
 */
export async function loadRuncard(
  file: string,
  options: LoadRuncardOptions = {},
): Promise<ValidatedRuncard> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (cause) {
    const reason = (cause as { code?: string }).code === 'ENOENT' ? 'no such file' : String(cause);
    throw new RuncardError({
      file,
      issues: [{ keyPath: '', problem: `cannot read the runcard: ${reason}` }],
      cause,
    });
  }
  const text = runcardText(bytes, file);
  const scan = hyperscanPath(text);
  if (scan === undefined) return parseRuncard(text, { file });
  const folder = options.hyperscan ?? resolve(dirname(file), scan);
  const triesFile = await findTriesFile(folder);
  return parseRuncard(text, {
    file,
    hyperscan:
      triesFile === undefined
        ? {
            problem: `no trials in ${folder}: expected a tries.json file, or a folder holding ${TRIES_FILE_LOCATIONS.join(', ')}`,
          }
        : await readTriesFile(triesFile),
  });
}

/** The runcard's `trial_specs.hyperscan`, if it gives one (before validation). */
function hyperscanPath(text: string): string | undefined {
  const document = parseDocument(text, { version: '1.2' });
  if (document.errors.length > 0) return undefined;
  const value: unknown = document.getIn(['trial_specs', 'hyperscan']);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The UTF-8 text of a runcard file; anything else (UTF-16, binary) is refused by name. */
function runcardText(bytes: Uint8Array, file: string): string {
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) ||
    (bytes[0] === 0xfe && bytes[1] === 0xff) ||
    bytes.includes(0);
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  if (utf16 || text === undefined) {
    const kind = utf16 ? 'it looks like UTF-16' : 'it is not valid UTF-8';
    throw new RuncardError({
      file,
      issues: [
        { keyPath: '', problem: `the runcard is not UTF-8 text (${kind}): save it as UTF-8` },
      ],
    });
  }
  return text;
}

/**
 * Parses and validates an n3fit-style YAML runcard (YAML 1.2), filling in n3fit's defaults.
 *
 * Every problem is collected before failing — values of the wrong kind or out of range, missing
 * keys, unknown keys (with the closest known key suggested), inconsistent keys, upstream keys
 * partonfit does not support — each with its key path and line, e.g.
 * `fit.yml:14: parameters.nodes_per_layer[2]: expected a positive integer, got -3`.
 *
 * @throws RuncardError - listing every problem found
 */
export function parseRuncard(text: string, options: ParseRuncardOptions = {}): ValidatedRuncard {
  const { file } = options;
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, version: '1.2', uniqueKeys: true });
  if (document.errors.length > 0) {
    const issues = document.errors.map((error) => ({
      keyPath: '',
      problem: `not valid YAML: ${(error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`,
      ...(error.linePos === undefined ? {} : { line: error.linePos[0].line }),
    }));
    throw new RuncardError({ file, issues });
  }
  const locate = (path: readonly PropertyKey[]) => lineOf(document, lineCounter, path);
  const raw = plainYamlValue(document);
  if (raw instanceof Error) {
    throw new RuncardError({
      file,
      issues: [{ keyPath: '', problem: `not valid YAML: ${raw.message}` }],
    });
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new RuncardError({
      file,
      issues: [
        { keyPath: '', problem: `expected a mapping of keys to values, got ${describeValue(raw)}` },
      ],
    });
  }

  const { remaining, warnings, issues } = setAsideSpecialKeys(raw, locate);
  const fail = () =>
    new RuncardError({ file, issues: issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) });
  const scan = options.hyperscan;
  const tries = scan === undefined || 'problem' in scan ? undefined : scan;
  if ('trial_specs' in remaining && tries === undefined) {
    const problem =
      scan !== undefined && 'problem' in scan
        ? scan.problem
        : "the scan's trials were not read: read the runcard with loadRuncard, or pass them to parseRuncard";
    issues.push(
      withLine({ keyPath: 'trial_specs.hyperscan', problem }, locate(['trial_specs', 'hyperscan'])),
    );
  }
  const expanded = expandParametersPerReplica(remaining, PARAMETER_KEYS, tries);
  issues.push(...expanded.issues.map(({ issue, at }) => withLine(issue, locate(at))));
  const withTrials = 'trial_specs' in remaining;
  const place = (issue: RuncardIssue): RuncardIssue[] =>
    placeEntryIssue(issue, expanded, withTrials, tries?.file ?? '', locate);
  const parsed = runcardSchema.safeParse(remaining);
  if (!parsed.success) {
    issues.push(
      ...parsed.error.issues
        .flatMap((issue) => describeIssue(issue, remaining, locate))
        .flatMap(place),
    );
    throw fail();
  }
  for (const issue of checkConsistency(parsed.data)) {
    issues.push(...place(withLine(issue, locate(parseKeyPath(issue.keyPath)))));
  }
  if (issues.length > 0) throw fail();
  const hyperscan =
    tries === undefined || expanded.trials === undefined
      ? undefined
      : { file: tries.file, trials: expanded.trials };
  return { runcard: parsed.data, warnings, file, hyperscan };
}

/**
 * An issue about a setting an entry of `parameters_per_replica` inherited from `parameters` is
 * reported once, at `parameters`; with `trial_specs`, an issue in an entry (or in `parameters`,
 * replica 1's entry) about a setting a trial gave belongs to `trial_specs.hyperscan`, naming
 * the trial.
 */
function placeEntryIssue(
  issue: RuncardIssue,
  expanded: ExpandedParameters,
  withTrials: boolean,
  triesFile: string,
  locate: (path: readonly PropertyKey[]) => number | undefined,
): RuncardIssue[] {
  const path = parseKeyPath(issue.keyPath);
  const { trials, ownKeys } = expanded;
  // `parameters` takes the trials' settings: a problem there is a trial's, or trial_specs' own
  const fromTrials = (TRIAL_SET_PARAMETERS as readonly string[]).includes(String(path[1]));
  if (
    withTrials &&
    path[0] === 'parameters' &&
    (fromTrials || ownKeys[0]?.includes(String(path[1])))
  ) {
    return [];
  }
  if (path[0] !== 'parameters_per_replica' || typeof path[1] !== 'number') return [issue];
  const own = ownKeys[path[1]] ?? [];
  const key = String(path[2]);
  // the network's two lists are checked against each other: an entry that sets either owns both
  const layers = ['nodes_per_layer', 'activation_per_layer'];
  const owned = own.includes(key) || (layers.includes(key) && own.some((k) => layers.includes(k)));
  if (path.length > 2 && !owned) return [];
  if (trials === undefined) return [issue];
  const placed = trialIssue(issue, trials, triesFile);
  return placed === undefined ? [issue] : [withLine(placed.issue, locate(placed.at))];
}

/**
 * Parses one `dataset_inputs` entry written on its own, as on the command line: a YAML flow
 * mapping such as `{dataset: SLACP, bundle: slacp.npz}` or a bare dataset name, validated with
 * the runcard's rules and defaults.
 *
 * @throws RuncardError - naming `source` and each problem's key
 */
export function parseDatasetInput(text: string, options: { source?: string } = {}): DatasetInput {
  const document = parseDocument(text, { version: '1.2', uniqueKeys: true });
  const value = document.errors.length > 0 ? undefined : plainYamlValue(document);
  const raw = value instanceof Error ? undefined : value;
  const entry = typeof raw === 'string' ? { dataset: raw } : raw;
  const parsed = datasetInputSchema.safeParse(entry);
  if (parsed.success) {
    const issues = checkDatasets({ dataset_inputs: [parsed.data] }).map((issue) => ({
      ...issue,
      keyPath: issue.keyPath.replace(/^dataset_inputs\[0\]\./, ''),
    }));
    if (issues.length === 0) return parsed.data;
    throw new RuncardError({ file: options.source, issues });
  }
  const issues =
    entry === undefined
      ? [{ keyPath: '', problem: `not valid YAML: ${text}` }]
      : parsed.error.issues.flatMap((issue) => describeIssue(issue, entry, () => undefined));
  throw new RuncardError({ file: options.source, issues });
}

/** Removes the keys of {@link SPECIAL_KEYS} from a copy of `raw`, turning them into messages. */
function setAsideSpecialKeys(raw: object, locate: (path: KeyPath) => number | undefined) {
  const remaining = structuredClone(raw) as Record<string, unknown>;
  const warnings: RuncardIssue[] = [];
  const issues: RuncardIssue[] = [];
  for (const special of SPECIAL_KEYS) {
    for (const path of matchingPaths(remaining, special.path)) {
      const value = valueAt(remaining, path);
      const parent = valueAt(remaining, path.slice(0, -1)) as Record<PropertyKey, unknown>;
      Reflect.deleteProperty(parent, path[path.length - 1] ?? '');
      const { warning, problem } = classifySpecialKey(special, value);
      (warning ? warnings : issues).push(
        withLine({ keyPath: formatKeyPath(path), problem }, locate(path)),
      );
    }
  }
  return { remaining, warnings, issues };
}

/**
 * What to say about a special key: keys without effect, and unsupported features switched off
 * (`false` or empty), are warnings; the rest are errors.
 */
function classifySpecialKey(
  special: SpecialKey,
  value: unknown,
): { warning: boolean; problem: string } {
  switch (special.kind) {
    case 'no-effect':
      return { warning: true, problem: `ignored: has no effect in partonfit (${special.reason})` };
    case 'unsupported':
      return value === false || value === null
        ? { warning: true, problem: 'ignored: switched off' }
        : { warning: false, problem: `not supported by partonfit: ${special.reason}; remove it` };
    case 'moved':
      return { warning: false, problem: special.reason };
  }
}

function describeIssue(
  issue: z.core.$ZodIssue,
  document: unknown,
  locate: (path: readonly PropertyKey[]) => number | undefined,
): RuncardIssue[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const path = [...issue.path, key];
      const suggestion = suggestKey(key, KNOWN_KEYS);
      const problem = `unknown key${suggestion === undefined ? '' : ` (did you mean '${suggestion}'?)`}`;
      return withLine({ keyPath: formatKeyPath(path), problem }, locate(path));
    });
  }
  const value = valueAt(document, issue.path);
  const problem =
    value === undefined
      ? `missing; ${issue.message}`
      : `${issue.message}, got ${describeValue(value)}`;
  return [withLine({ keyPath: formatKeyPath(issue.path), problem }, locate(issue.path))];
}

function withLine(issue: RuncardIssue, line: number | undefined): RuncardIssue {
  return line === undefined ? issue : { ...issue, line };
}

/** `a.b[2].c` back into `['a', 'b', 2, 'c']`. */
function parseKeyPath(keyPath: string): KeyPath {
  return keyPath
    .split(/\.|(?=\[)/)
    .filter((segment) => segment !== '')
    .map((segment) => (segment.startsWith('[') ? Number(segment.slice(1, -1)) : segment));
}

/**
 * The 1-based line of the key or item at `path`, or of its closest ancestor present in the
 * document (for a missing key, the section that should hold it).
 */
function lineOf(
  document: Document,
  lineCounter: LineCounter,
  path: readonly PropertyKey[],
): number | undefined {
  for (let depth = path.length; depth > 0; depth--) {
    const parent = depth === 1 ? document.contents : document.getIn(path.slice(0, depth - 1), true);
    const segment = path[depth - 1];
    let start: number | undefined;
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === segment);
      start = isNode(pair?.key) ? pair.key.range?.[0] : undefined;
    } else if (isSeq(parent) && typeof segment === 'number') {
      const item: unknown = parent.items[segment];
      start = isNode(item) ? item.range?.[0] : undefined;
    }
    if (start !== undefined) return lineCounter.linePos(start).line;
  }
  return undefined;
}
