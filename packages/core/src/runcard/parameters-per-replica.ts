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
import { isMapping } from '../validate/is-mapping.js';

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

function isOneOf(names: readonly string[], key: string): boolean {
  return names.includes(key);
}

/**
 * One entry of `parameters_per_replica` split into the settings a replica may set itself and the
 * problems with the rest (shared settings, unknown keys): the refused keys are left out of the
 * settings, so that each problem is reported once.
 */
function replicaEntry(
  entry: Record<string, unknown>,
  at: KeyPath,
  sharedKeys: ReadonlySet<string>,
): { settings: Record<string, unknown>; issues: PlacedIssue[] } {
  const settings: Record<string, unknown> = {};
  const issues: PlacedIssue[] = [];
  const place = (path: KeyPath, problem: string) =>
    issues.push({ issue: { keyPath: formatKeyPath(path), problem }, at: path });
  const perReplica = REPLICA_HYPERPARAMETERS.join(', ');
  for (const [key, value] of Object.entries(entry)) {
    const path = [...at, key];
    if (!isOneOf(REPLICA_HYPERPARAMETERS, key)) {
      const suggestion = suggestKey(key, new Set(REPLICA_HYPERPARAMETERS));
      place(
        path,
        sharedKeys.has(key)
          ? `shared by every replica: set it once in parameters (per replica: ${perReplica})`
          : `not a hyperparameter${suggestion === undefined ? '' : ` (did you mean '${suggestion}'?)`}; per replica: ${perReplica}`,
      );
      continue;
    }
    if ((key !== 'positivity' && key !== 'integrability') || !isMapping(value)) {
      settings[key] = value;
      continue;
    }
    const own: Record<string, unknown> = {};
    for (const [setting, schedule] of Object.entries(value)) {
      if (isOneOf(REPLICA_LAGRANGE_SETTINGS, setting)) {
        own[setting] = schedule;
      } else {
        place(
          [...path, setting],
          `not a per-replica setting: only ${REPLICA_LAGRANGE_SETTINGS.join(' and ')} may differ between replicas; set it once in parameters.${key}`,
        );
      }
    }
    settings[key] = own;
  }
  return { settings, issues };
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
  const split = entries.map((entry, i) =>
    isMapping(entry) ? replicaEntry(entry, ['parameters_per_replica', i], sharedKeys) : undefined,
  );
  raw.parameters_per_replica = entries.map((entry, i) => {
    const own = split[i];
    return own === undefined ? entry : mergeReplicaParameters(raw.parameters, own.settings);
  });
  return {
    issues: split.flatMap((own) => own?.issues ?? []),
    trials: undefined,
    ownKeys: entries.map((entry) => (isMapping(entry) ? Object.keys(entry) : [])),
  };
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
    if (!isOneOf(TRIAL_COLUMNS, key)) {
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
