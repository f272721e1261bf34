import * as tf from '@tensorflow/tfjs-core';

/** The tfjs memory after one step. */
export interface MemorySample {
  /** The step (0-based, counting warm-up steps). */
  readonly step: number;
  /** `tf.memory().numTensors`. */
  readonly numTensors: number;
  /** `tf.memory().numBytes`. */
  readonly numBytes: number;
}

/** Tensors and bytes alive over a run of steps, and the process's resident memory. */
export class MemoryTrace {
  private readonly samples: MemorySample[] = [];
  private rssPeak = process.memoryUsage.rss();

  /** Records the memory after `step`. */
  record(step: number): void {
    const { numTensors, numBytes } = tf.memory();
    this.samples.push({ step, numTensors, numBytes });
    this.rssPeak = Math.max(this.rssPeak, process.memoryUsage.rss());
  }

  /** The samples, in order. */
  get series(): readonly MemorySample[] {
    return this.samples;
  }

  /** Whether the number of tensors and bytes is the same after every recorded step. */
  get flat(): boolean {
    const first = this.samples.at(0);
    return this.samples.every(
      (sample) => sample.numTensors === first?.numTensors && sample.numBytes === first.numBytes,
    );
  }

  /** The largest resident set size seen at a sample (or at construction), in bytes. */
  get rssPeakBytes(): number {
    return this.rssPeak;
  }
}

/** At most `count` samples evenly spread over `series` (first and last kept), for a report. */
export function thinSeries<T>(series: readonly T[], count: number): T[] {
  if (series.length <= count) return [...series];
  if (count < 2) return series.slice(0, Math.max(count, 0));
  return Array.from(
    { length: count },
    (_, i) => series[Math.round((i * (series.length - 1)) / (count - 1))],
  );
}
