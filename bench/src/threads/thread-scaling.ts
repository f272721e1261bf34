import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import {
  measuredConfigurations,
  type BenchResult,
  type MeasuredConfiguration,
  type ThreadScalingResult,
} from '../report/result-schema.js';

/** One run of the benchmark on native with the addon's pool at `threads` threads. */
export interface ThreadRun {
  readonly threads: number;
  /** The result file the run wrote, for messages. */
  readonly file: string;
  readonly result: BenchResult;
}

/**
 * The step at every thread count, one row per measured configuration of each run, by workload (in
 * the order of `--workloads`), R and thread count: speed-up =
 * median at 1 thread / median at n, efficiency = speed-up / n (both null without a 1-thread
 * measurement of the configuration).
 */
export function threadScalingRows(runs: readonly ThreadRun[]): ThreadScalingResult[] {
  const key = (c: MeasuredConfiguration) => `${c.workload}/${c.replicas}`;
  const single = new Map(
    runs
      .filter((run) => run.threads === 1)
      .flatMap((run) =>
        measuredConfigurations(run.result).map((c) => [key(c), c.stepMs.median] as const),
      ),
  );
  const rows = runs.flatMap((run) =>
    measuredConfigurations(run.result).map((c): ThreadScalingResult => {
      const one = single.get(key(c));
      const speedup = one === undefined ? null : one / c.stepMs.median;
      return {
        workload: c.workload,
        replicas: c.replicas,
        threads: run.threads,
        stepMs: c.stepMs,
        speedup,
        efficiency: speedup === null ? null : speedup / run.threads,
        components: c.components.map((component) => ({
          name: component.name,
          medianMs: component.stats.median,
        })),
      };
    }),
  );
  const workloads = runs.flatMap((run) => run.result.settings.workloads);
  const position = (row: ThreadScalingResult) => workloads.indexOf(row.workload);
  return rows.sort(
    (a, b) => position(a) - position(b) || a.replicas - b.replicas || a.threads - b.threads,
  );
}

/**
 * The result of the largest thread count with {@link threadScalingRows} of every run.
 *
 * @throws InvalidArgumentError - when there is no run
 * @throws InputFileError - naming the run's file, when its pool ran another number of threads
 *   than it was started with (`blasPeak.threads`)
 */
export function withThreadScaling(runs: readonly ThreadRun[]): BenchResult {
  if (runs.length === 0) {
    throw new InvalidArgumentError({ argument: 'runs', problem: 'expected at least one run' });
  }
  for (const { threads, file, result } of runs) {
    const pool = result.blasPeak?.threads;
    if (pool !== undefined && pool !== threads) {
      throw new InputFileError({
        file,
        key: 'blasPeak.threads',
        problem: `the addon's pool ran ${pool} threads, but the run was started with PARTONFIT_NATIVE_THREADS=${threads}`,
      });
    }
  }
  const largest = runs.reduce((most, run) => (run.threads > most.threads ? run : most));
  return { ...largest.result, threadScaling: threadScalingRows(runs) };
}
