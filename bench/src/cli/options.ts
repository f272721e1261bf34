import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '@partonfit/core';
import { RATIO_WORKLOADS, WORKLOADS } from '../workloads/workloads.js';

/** Parts of the benchmark that `--skip` can leave out. */
export const SKIPPABLE_PARTS = [
  'setup',
  'ratios',
  'components',
  'profile',
  'crosscheck',
  'zero-blocks',
  'heterogeneous',
] as const;

/** One of {@link SKIPPABLE_PARTS}. */
export type SkippablePart = (typeof SKIPPABLE_PARTS)[number];

/** `bench/results/` of the repository. */
export const DEFAULT_RESULTS_FOLDER = fileURLToPath(new URL('../../results/', import.meta.url));

/** What to measure and how. */
export interface BenchOptions {
  readonly mode: 'full' | 'quick';
  /**
   * `--backend`: run this one backend in this process. Otherwise (`--backends`, or every
   * available backend) each backend runs in its own child process.
   */
  readonly backend: string | undefined;
  /** `--backends`: the backends to run, each in a child process; undefined = every available. */
  readonly backends: readonly string[] | undefined;
  readonly workloads: readonly string[];
  /** Replica counts, ascending. */
  readonly replicas: readonly number[];
  /** Replica counts at which the five naive variants run (those also in `replicas`). */
  readonly ratioReplicas: readonly number[];
  /** Workloads on which the five naive variants run (those also in `workloads`). */
  readonly ratioWorkloads: readonly string[];
  /** Whether `replicas`/`ratioReplicas` were given on the command line (quick mode keeps them). */
  readonly explicitReplicas: boolean;
  readonly steps: number;
  readonly warmup: number;
  readonly logEvery: number;
  /** Seconds a measurement may take before it is skipped; Infinity = unlimited. */
  readonly budgetSeconds: number;
  readonly out: string;
  readonly skip: ReadonlySet<SkippablePart>;
  /** The date in the result file names, `YYYY-MM-DD`. */
  readonly date: string;
  /**
   * `--threads`: the native backend's pool sizes, ascending, each run in its own process with
   * `PARTONFIT_NATIVE_THREADS` set; undefined = one run at the pool's default (every CPU).
   */
  readonly threads: readonly number[] | undefined;
  readonly help: boolean;
}

/** The usage text of `npm run bench`. */
export const USAGE = `Usage: npm run bench -- [options]

Runs the training step of seeded synthetic workloads (nnpdf40, nnpdf40-sparse, dis) for R = 1, 10, 100
replicas on every available backend (each in its own process) and writes
bench/results/<date>-<backend>.json and bench/results/<date>.md (also printed).

Options:
  --quick                 ~2-minute version: 5 steps after 2 warm-up, R = 1, 10 (and 100 on the
                          fastest backend), the naive variants on dis at R = 10 on the fastest
                          backend only, 3 repeats per component, 20 s budget per measurement
                          (an R projected above it is skipped), no trainReplicas cross-check
  --backends a,b          backends to run (default: every one initBackend can load, in
                          order of preference)
  --backend name          run one backend in this process
  --workloads a,b         ${Object.keys(WORKLOADS).join(', ')} (default: all)
  --replicas 1,10,100     replica counts
  --ratio-replicas 10,100 replica counts for the five naive-vs-seed ratios
  --ratio-workloads a,b   workloads for the ratios (default: nnpdf40, dis; quick: dis)
  --steps N               measured steps after warm-up (default 20)
  --warmup N              warm-up steps (default 3)
  --budget S              skip a measurement projected to exceed S seconds (default 900;
                          0 = no limit)
  --skip a,b              leave out: ${SKIPPABLE_PARTS.join(', ')}
  --threads 1,2|all       run native once per thread count of its pool (all: 1 to every CPU),
                          each in its own process, and report the step at each, the speed-up
                          over 1 thread and the scaling efficiency (default: one run at the
                          pool's default, every CPU)
  --out DIR               results folder (default bench/results)
  --date YYYY-MM-DD       date in the file names (default today, UTC)
  --help                  this text
`;

function fail(argument: string, problem: string): never {
  throw new InvalidArgumentError({ argument, problem });
}

function integers(argument: string, text: string, least: number): number[] {
  const values = text
    .split(',')
    .filter((part) => part !== '')
    .map(Number);
  for (const value of values) {
    if (!Number.isInteger(value) || value < least) {
      fail(argument, `expected integers ≥ ${least} separated by commas, got '${text}'`);
    }
  }
  return [...new Set(values)].sort((a, b) => a - b);
}

function integer(argument: string, text: string, least: number): number {
  const values = integers(argument, text, least);
  if (values.length !== 1) fail(argument, `expected one integer ≥ ${least}, got '${text}'`);
  return values[0];
}

function names(argument: string, text: string, known: readonly string[]): string[] {
  const values = text.split(',').filter((part) => part !== '');
  const unknown = values.filter((value) => !known.includes(value));
  if (values.length === 0 || unknown.length > 0) {
    fail(argument, `expected names among ${known.join(', ')}, got '${text}'`);
  }
  return values;
}

const VALUE_OPTIONS = [
  '--backends',
  '--backend',
  '--workloads',
  '--replicas',
  '--ratio-replicas',
  '--ratio-workloads',
  '--steps',
  '--warmup',
  '--budget',
  '--skip',
  '--out',
  '--date',
  '--threads',
] as const;
const FLAG_OPTIONS = ['--quick', '--help'] as const;

/** Splits argv into option → value (`--name value` or `--name=value`), flags → ''. */
function tokens(argv: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2) as [string, string | undefined];
    if ((FLAG_OPTIONS as readonly string[]).includes(name)) {
      if (inline !== undefined) fail(name, 'takes no value');
      found.set(name, '');
    } else if ((VALUE_OPTIONS as readonly string[]).includes(name)) {
      const value = inline ?? (i + 1 < argv.length ? argv[++i] : undefined);
      if (value === undefined) fail(name, 'expected a value');
      found.set(name, value);
    } else {
      fail(
        name,
        `unknown option; expected one of ${[...FLAG_OPTIONS, ...VALUE_OPTIONS].join(', ')}`,
      );
    }
  }
  return found;
}

/** Today's date in UTC, `YYYY-MM-DD`. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * The thread counts of `--threads`: `all` is 1 to `cores`, otherwise integers ≥ 1 separated by
 * commas, ascending and unique.
 *
 * @throws InvalidArgumentError - naming `--threads`, for anything else
 */
export function parseThreadCounts(text: string, cores: number): number[] {
  if (text === 'all') return Array.from({ length: cores }, (_, index) => index + 1);
  if (!/^[1-9]\d*(,[1-9]\d*)*$/.test(text)) {
    fail('--threads', `expected 'all' or integers ≥ 1 separated by commas, got '${text}'`);
  }
  return integers('--threads', text, 1);
}

/**
 * Parses the benchmark's command line (see {@link USAGE}).
 *
 * @param cores - the CPUs `--threads all` counts up to (default: those this process may use)
 * @throws InvalidArgumentError - naming the option, for an unknown option, a missing value or a
 *   value of the wrong kind, or `--threads` with `--backend` (the pool's size is fixed when the
 *   addon loads, so every thread count needs its own process)
 */
export function parseBenchOptions(
  argv: readonly string[],
  cores: number = availableParallelism(),
): BenchOptions {
  const found = tokens(argv);
  const quick = found.has('--quick');
  const value = (name: (typeof VALUE_OPTIONS)[number]) => found.get(name);
  const replicasText = value('--replicas');
  const ratioText = value('--ratio-replicas');
  const budgetText = value('--budget');
  const budget = budgetText === undefined ? (quick ? 20 : 900) : integer('--budget', budgetText, 0);
  const date = value('--date') ?? today();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) fail('--date', `expected YYYY-MM-DD, got '${date}'`);
  const skip = new Set<SkippablePart>(quick ? ['crosscheck'] : []);
  const skipText = value('--skip');
  if (skipText !== undefined) {
    for (const part of names('--skip', skipText, SKIPPABLE_PARTS)) skip.add(part as SkippablePart);
  }
  const backendsText = value('--backends');
  const threadsText = value('--threads');
  if (threadsText !== undefined && value('--backend') !== undefined) {
    fail(
      '--threads',
      'runs every thread count in its own process; use --backends instead of --backend',
    );
  }
  return {
    mode: quick ? 'quick' : 'full',
    backend: value('--backend'),
    backends: backendsText === undefined ? undefined : backendsText.split(',').filter(Boolean),
    workloads:
      value('--workloads') === undefined
        ? Object.keys(WORKLOADS)
        : names('--workloads', value('--workloads') ?? '', Object.keys(WORKLOADS)),
    replicas:
      replicasText === undefined
        ? quick
          ? [1, 10]
          : [1, 10, 100]
        : integers('--replicas', replicasText, 1),
    ratioReplicas:
      ratioText === undefined
        ? quick
          ? [10]
          : [10, 100]
        : integers('--ratio-replicas', ratioText, 1),
    ratioWorkloads:
      value('--ratio-workloads') === undefined
        ? quick
          ? ['dis']
          : [...RATIO_WORKLOADS]
        : names('--ratio-workloads', value('--ratio-workloads') ?? '', Object.keys(WORKLOADS)),
    explicitReplicas: replicasText !== undefined || ratioText !== undefined,
    steps: integer('--steps', value('--steps') ?? (quick ? '5' : '20'), 1),
    warmup: integer('--warmup', value('--warmup') ?? (quick ? '2' : '3'), 1),
    logEvery: 100,
    budgetSeconds: budget === 0 ? Number.POSITIVE_INFINITY : budget,
    out: value('--out') ?? DEFAULT_RESULTS_FOLDER,
    skip,
    date,
    threads: threadsText === undefined ? undefined : parseThreadCounts(threadsText, cores),
    help: found.has('--help'),
  };
}

/**
 * The command-line arguments that reproduce `options` for one backend in a child process; in
 * quick mode only the fastest backend (`fastest`) runs R = 100 and the naive variants, unless
 * replica counts were given explicitly.
 */
export function childArguments(options: BenchOptions, backend: string, fastest: boolean): string[] {
  let replicas = options.replicas;
  let ratioReplicas = options.ratioReplicas;
  if (options.mode === 'quick' && !options.explicitReplicas) {
    replicas = fastest ? [...options.replicas, 100] : options.replicas;
    ratioReplicas = fastest ? options.ratioReplicas : [];
  }
  return [
    ...(options.mode === 'quick' ? ['--quick'] : []),
    '--backend',
    backend,
    '--workloads',
    options.workloads.join(','),
    '--replicas',
    replicas.join(','),
    '--ratio-replicas',
    ratioReplicas.join(','),
    '--ratio-workloads',
    options.ratioWorkloads.join(','),
    '--steps',
    String(options.steps),
    '--warmup',
    String(options.warmup),
    '--budget',
    Number.isFinite(options.budgetSeconds) ? String(options.budgetSeconds) : '0',
    ...(options.skip.size === 0 ? [] : ['--skip', [...options.skip].join(',')]),
    '--out',
    options.out,
    '--date',
    options.date,
  ];
}
