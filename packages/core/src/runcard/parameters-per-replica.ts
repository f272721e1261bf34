import type { RuncardIssue } from '../errors/runcard-error.js';
import type { HyperscanTries } from '../hyperscan/tries-file.js';
import {
  columnsAsParameters,
  selectTrials,
  TRIAL_COLUMNS,
  trialColumns,
  type RankedTrial,
  type TrialColumn,
} from '../hyperscan/trial-selection.js';
import { describeValue, formatKeyPath, type KeyPath } from './key-path.js';
import {
  mergeReplicaParameters,
  REPLICA_HYPERPARAMETERS,
  REPLICA_LAGRANGE_SETTINGS,
} from './replica-parameters.js';
import { suggestKey } from './suggest-key.js';

/** An issue found while expanding per-replica settings, with the document path to locate it at. */
export interface PlacedIssue {
  readonly issue: RuncardIssue;
  /** Where in the runcard the issue belongs (its line is looked up from there). */
  readonly at: KeyPath;
}

/** What {@link expandParametersPerReplica} found out. */
export interface ExpandedParameters {
  readonly issues: PlacedIssue[];
  /**
   * With `trial_specs`: the trial behind each entry of `parameters_per_replica`, in entry order
   * (entry k belongs to replica k + 1 and so holds the trial of rank (k + 1) mod N).
   */
  readonly trials: readonly RankedTrial[] | undefined;
  /**
   * The keys each entry of `parameters_per_replica` sets itself (the rest it takes from
   * `parameters`), in entry order; empty without per-replica settings.
   */
  readonly ownKeys: readonly (readonly string[])[];
}

/**
 * The settings n3fit's runcards may not give in `parameters` when `trial_specs` sets them
 * (upstream's `HYPEROPTIMIZED_PARAMETERS` as partonfit names them).
 */
export const TRIAL_SET_PARAMETERS = [
  'nodes_per_layer',
  'activation_per_layer',
  'initializer',
  'optimizer',
  'epochs',
  'stopping_patience',
  'layer_type',
  'dropout',
] as const;

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The settings of an entry a replica may set itself: keys refused by {@link entryKeyIssues} are
 * left out, so that each problem is reported once.
 */
function replicaSettingsOf(entry: Record<string, unknown>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (!(REPLICA_HYPERPARAMETERS as readonly string[]).includes(key)) continue;
    settings[key] =
      (key === 'positivity' || key === 'integrability') && isMapping(value)
        ? Object.fromEntries(
            Object.entries(value).filter(([setting]) =>
              (REPLICA_LAGRANGE_SETTINGS as readonly string[]).includes(setting),
            ),
          )
        : value;
  }
  return settings;
}

/** Problems with the keys one entry of `parameters_per_replica` gives. */
function entryKeyIssues(
  entry: Record<string, unknown>,
  at: KeyPath,
  sharedKeys: ReadonlySet<string>,
): PlacedIssue[] {
  const issues: PlacedIssue[] = [];
  const place = (path: KeyPath, problem: string) =>
    issues.push({ issue: { keyPath: formatKeyPath(path), problem }, at: path });
  for (const [key, value] of Object.entries(entry)) {
    const path = [...at, key];
    if ((REPLICA_HYPERPARAMETERS as readonly string[]).includes(key)) {
      if ((key === 'positivity' || key === 'integrability') && isMapping(value)) {
        for (const setting of Object.keys(value)) {
          if (!(REPLICA_LAGRANGE_SETTINGS as readonly string[]).includes(setting)) {
            place(
              [...path, setting],
              `not a per-replica setting: only ${REPLICA_LAGRANGE_SETTINGS.join(' and ')} may differ between replicas; set it once in parameters.${key}`,
            );
          }
        }
      }
    } else if (sharedKeys.has(key)) {
      place(
        path,
        `shared by every replica: set it once in parameters (per replica: ${REPLICA_HYPERPARAMETERS.join(', ')})`,
      );
    } else {
      const suggestion = suggestKey(key, new Set(REPLICA_HYPERPARAMETERS));
      place(
        path,
        `not a hyperparameter${suggestion === undefined ? '' : ` (did you mean '${suggestion}'?)`}; per replica: ${REPLICA_HYPERPARAMETERS.join(', ')}`,
      );
    }
  }
  return issues;
}

/**
 * Turns a runcard's per-replica settings (as written, before validation) into whole `parameters`
 * sections, in place in `raw`:
 *
 * - `parameters_per_replica`: each entry's keys are checked (only {@link REPLICA_HYPERPARAMETERS})
 *   and the entry is merged onto `parameters` ({@link mergeReplicaParameters});
 * - `trial_specs`: the scan's trials are selected as n3fit 4.1.5 selects them
 *   ({@link selectTrials}), `override` is applied to every trial's columns, and entry k becomes
 *   the trial of rank `(k + 1) mod N` merged onto `parameters` — so that replica r, taking entry
 *   `(r − 1) mod N`, gets the trial n3fit gives it (`replica % number_of_trials`). `parameters`
 *   itself becomes replica 1's, so that it stays a whole section.
 *
 * The entries are then validated by the runcard schema like `parameters`.
 *
 * @param raw - the runcard as a plain object (changed in place)
 * @param sharedKeys - every key of `parameters`, to tell shared settings from unknown keys
 * @param tries - the scan's trials, read by the caller, when the runcard has `trial_specs`
 */
export function expandParametersPerReplica(
  raw: Record<string, unknown>,
  sharedKeys: ReadonlySet<string>,
  tries: HyperscanTries | undefined,
): ExpandedParameters {
  const specs = raw.trial_specs;
  const listed = raw.parameters_per_replica;
  if (specs !== undefined && listed !== undefined) {
    return {
      issues: [
        {
          issue: {
            keyPath: 'parameters_per_replica',
            problem: 'cannot be combined with trial_specs, which sets every replica’s parameters',
          },
          at: ['parameters_per_replica'],
        },
      ],
      trials: undefined,
      ownKeys: [],
    };
  }
  if (isMapping(specs)) return expandTrialSpecs(raw, specs, tries);
  if (!Array.isArray(listed)) return { issues: [], trials: undefined, ownKeys: [] };
  const entries: unknown[] = listed;
  const issues = entries.flatMap((entry, i) =>
    isMapping(entry) ? entryKeyIssues(entry, ['parameters_per_replica', i], sharedKeys) : [],
  );
  raw.parameters_per_replica = entries.map((entry) =>
    isMapping(entry) ? mergeReplicaParameters(raw.parameters, replicaSettingsOf(entry)) : entry,
  );
  const ownKeys = entries.map((entry) => (isMapping(entry) ? Object.keys(entry) : []));
  return { issues, trials: undefined, ownKeys };
}

function expandTrialSpecs(
  raw: Record<string, unknown>,
  specs: Record<string, unknown>,
  tries: HyperscanTries | undefined,
): ExpandedParameters {
  const issues: PlacedIssue[] = [];
  const place = (path: KeyPath, problem: string) =>
    issues.push({ issue: { keyPath: formatKeyPath(path), problem }, at: path });
  const parameters = isMapping(raw.parameters) ? raw.parameters : {};
  for (const key of TRIAL_SET_PARAMETERS) {
    if (key in parameters) {
      place(
        ['parameters', key],
        `set per replica by the trials of trial_specs: remove it here (trial_specs.override gives every replica one value)`,
      );
    }
  }
  const override = isMapping(specs.override) ? specs.override : {};
  for (const [key, value] of Object.entries(override)) {
    if (!(TRIAL_COLUMNS as readonly string[]).includes(key)) {
      const suggestion = suggestKey(key, new Set(TRIAL_COLUMNS));
      place(
        ['trial_specs', 'override', key],
        `not a trial setting${suggestion === undefined ? '' : ` (did you mean '${suggestion}'?)`}, got ${describeValue(value)}; expected one of ${TRIAL_COLUMNS.join(', ')}`,
      );
    }
  }
  const thermalization = specs.thermalization ?? 0;
  const count = specs.number_of_trials;
  const countsValid =
    Number.isInteger(thermalization) &&
    (thermalization as number) >= 0 &&
    Number.isInteger(count) &&
    (count as number) > 0;
  if (tries === undefined || !countsValid || issues.length > 0) {
    return { issues, trials: undefined, ownKeys: [] };
  }
  const selection = selectTrials(tries, {
    thermalization: thermalization as number,
    number_of_trials: count as number,
  });
  if ('problem' in selection) {
    place(['trial_specs', 'number_of_trials'], selection.problem);
    return { issues, trials: undefined, ownKeys: [] };
  }
  const ranked = selection.trials;
  const trials = ranked.map((_, k) => ranked[(k + 1) % ranked.length]);
  const settings = trials.map(({ trial }) =>
    columnsAsParameters({
      ...trialColumns(trial),
      ...(override as Partial<Record<TrialColumn, unknown>>),
    }),
  );
  const entries = settings.map((own) => mergeReplicaParameters(parameters, own));
  raw.parameters_per_replica = entries;
  raw.parameters = entries[0];
  return { issues, trials, ownKeys: settings.map((own) => Object.keys(own)) };
}

/**
 * Where an issue the schema found in an entry made from a trial belongs: the runcard's
 * `trial_specs.hyperscan`, naming the trial, its rank and the scan's file.
 *
 * @param issue - an issue with a key path under `parameters_per_replica[k]`
 * @returns the issue re-placed, or undefined for an issue elsewhere
 */
export function trialIssue(
  issue: RuncardIssue,
  trials: readonly RankedTrial[],
  triesFile: string,
): PlacedIssue | undefined {
  const match = /^parameters_per_replica\[(\d+)\]\.?(.*)$/.exec(issue.keyPath);
  if (match === null) return undefined;
  const ranked = trials.at(Number(match[1]));
  if (ranked === undefined) return undefined;
  const setting = match[2] === '' ? '' : `${match[2]}: `;
  return {
    issue: {
      keyPath: 'trial_specs.hyperscan',
      problem: `trial ${ranked.trial.tid} (rank ${ranked.rank} of the kept trials) of ${triesFile}: ${setting}${issue.problem}`,
    },
    at: ['trial_specs', 'hyperscan'],
  };
}
