import { summarize, type SampleSummary } from '../stats/summary.js';

/**
 * Runs `run` `warmup` times untimed, then `repeats` times timed, and summarises the wall times
 * (ms).
 */
export async function timeRepeated(
  run: () => void | Promise<void>,
  repeats: number,
  warmup = 1,
): Promise<SampleSummary> {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return summarize(times);
}
