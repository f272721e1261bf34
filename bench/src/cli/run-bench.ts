import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PartonfitError } from '@partonfit/core';
import { resultsMarkdown } from '../report/markdown.js';
import {
  markdownFile,
  readBenchResult,
  readResultsOfDate,
  resultFile,
  writeBenchResult,
  writeFormatted,
} from '../report/result-file.js';
import { RESULT_SCHEMA_VERSION } from '../report/result-schema.js';
import { runBackend } from '../run/run-backend.js';
import { withThreadScaling, type ThreadRun } from '../threads/thread-scaling.js';
import { availableBackends } from './available-backends.js';
import { childArguments, parseBenchOptions, USAGE, type BenchOptions } from './options.js';

/** Set in the environment of the per-backend processes, which then leave the printing to the parent. */
const CHILD_VARIABLE = 'PARTONFIT_BENCH_CHILD';

/** The built entry point, which the per-backend processes run. */
const MAIN_SCRIPT = fileURLToPath(new URL('../main.js', import.meta.url));

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Writes `<date>.md` from every result of the date and returns its formatted text. */
async function writeMarkdown(options: BenchOptions): Promise<string> {
  const results = await readResultsOfDate(options.out, options.date, (file, version) => {
    log(
      `left out of ${options.date}.md: ${file} has schemaVersion ${version}, this benchmark writes ${RESULT_SCHEMA_VERSION} (measure that backend again)`,
    );
  });
  const text = resultsMarkdown(results, options.date);
  return writeFormatted(markdownFile(options.out, options.date), text);
}

async function runOneBackend(options: BenchOptions): Promise<number> {
  const result = await runBackend(options, log);
  const file = resultFile(options.out, options.date, result.backend.name);
  await writeBenchResult(file, result);
  log(`wrote ${file}`);
  const markdown = await writeMarkdown(options);
  if (process.env[CHILD_VARIABLE] !== '1') process.stdout.write(markdown);
  return 0;
}

/** The addon's pool size, read once when the addon loads (see backend-native's README). */
const THREADS_VARIABLE = 'PARTONFIT_NATIVE_THREADS';

/** Runs one backend in a child process; returns whether it succeeded. */
function runChild(
  options: BenchOptions,
  backend: string,
  fastest: boolean,
  environment: Readonly<Record<string, string>> = {},
): boolean {
  const child = spawnSync(
    process.execPath,
    [MAIN_SCRIPT, ...childArguments(options, backend, fastest)],
    { stdio: 'inherit', env: { ...process.env, [CHILD_VARIABLE]: '1', ...environment } },
  );
  if (child.status !== 0) {
    log(`[${backend}] failed (exit ${child.status ?? child.signal ?? 'unknown'})`);
  }
  return child.status === 0;
}

/**
 * Runs native once per thread count, each in a child process with its pool of that size writing
 * to a folder of its own, then writes the largest count's result with the step at every count.
 * Returns whether every run succeeded.
 */
async function runThreadCounts(
  options: BenchOptions,
  threads: readonly number[],
  fastest: boolean,
): Promise<boolean> {
  const backend = 'native';
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-bench-threads-'));
  try {
    const runs: ThreadRun[] = [];
    for (const count of threads) {
      log(`[${backend}] ${THREADS_VARIABLE}=${count}`);
      const out = join(folder, String(count));
      if (!runChild({ ...options, out }, backend, fastest, { [THREADS_VARIABLE]: String(count) })) {
        return false;
      }
      const file = resultFile(out, options.date, backend);
      runs.push({ threads: count, file, result: await readBenchResult(file) });
    }
    const file = resultFile(options.out, options.date, backend);
    await writeBenchResult(file, withThreadScaling(runs));
    log(`wrote ${file}`);
    return true;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function runEveryBackend(options: BenchOptions): Promise<number> {
  const { available, unavailable } = await availableBackends(options.backends);
  for (const { backend, reason } of unavailable) log(`[${backend}] not run: ${reason}`);
  if (options.threads !== undefined && !available.includes('native')) {
    log('--threads left unused: it sizes the pool of the native backend, which is not run');
  }
  let failures = 0;
  for (const [index, backend] of available.entries()) {
    const succeeded =
      backend === 'native' && options.threads !== undefined
        ? await runThreadCounts(options, options.threads, index === 0)
        : runChild(options, backend, index === 0);
    if (!succeeded) failures += 1;
  }
  if (available.length > failures) process.stdout.write(await writeMarkdown(options));
  return failures === 0 && available.length > 0 ? 0 : 1;
}

/**
 * `npm run bench`: parses the options; with `--backend`, measures that backend in this process;
 * otherwise runs every available backend (or `--backends`) in its own process, one after the
 * other (native once per `--threads` count), then prints the day's markdown tables. Returns the
 * exit code.
 */
export async function runBench(argv: readonly string[]): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchOptions(argv);
  } catch (error) {
    if (!PartonfitError.isInstance(error)) throw error;
    log(`bench: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  return options.backend === undefined ? runEveryBackend(options) : runOneBackend(options);
}
