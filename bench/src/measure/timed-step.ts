import type { ReadCounter } from '../instrument/read-counter.js';
import type { BenchStep } from '../steps/bench-step.js';

/** Host read-backs counted while a step formulation ran. */
export interface ReadCounts {
  /** Read-backs inside the steps themselves, per step (0 for the seed step). */
  readonly perStep: number;
  /**
   * Read-backs per read-back point (the losses and the stopping state); when no interval ended
   * during the run, counted on one extra, untimed step that ends an interval and its read-back.
   */
  readonly perReadBack: number;
  /** Read-back points counted (warm-up included). */
  readonly readBacks: number;
  /** Host syncs per 100 steps: 100 · perStep + (100 / logEvery) · perReadBack. */
  readonly per100Steps: number;
}

/**
 * One step formulation being run step after step: its epoch counter, the read-back after every
 * step that ends a `logEvery` interval (as the trainer's loop), and the host reads counted inside
 * steps and at read-backs separately.
 */
export class TimedStep {
  private epoch = 0;
  private stepReads = 0;
  private readBackReads = 0;
  private readBacks = 0;

  constructor(
    private readonly step: BenchStep,
    private readonly logEvery: number,
    private readonly counter: ReadCounter,
  ) {}

  /** Runs the next step (and its read-back when it ends an interval); returns its wall time, ms. */
  async next(): Promise<number> {
    const start = performance.now();
    const before = this.counter.count;
    await this.step.run(this.epoch);
    const afterRun = this.counter.count;
    this.stepReads += afterRun - before;
    this.epoch += 1;
    if (this.epoch % this.logEvery === 0) {
      await this.step.readBack();
      this.readBacks += 1;
      this.readBackReads += this.counter.count - afterRun;
    }
    return performance.now() - start;
  }

  /** The steps run so far (the epoch of the next step). */
  get steps(): number {
    return this.epoch;
  }

  /**
   * The read counts; when no read-back happened yet, first runs (untimed, uncounted as a step)
   * the step that ends the current interval and counts its read-back.
   */
  async reads(): Promise<ReadCounts> {
    const steps = this.epoch;
    if (this.readBacks === 0) {
      this.epoch = this.logEvery * Math.ceil((this.epoch + 1) / this.logEvery) - 1;
      await this.step.run(this.epoch);
      const before = this.counter.count;
      await this.step.readBack();
      this.readBackReads = this.counter.count - before;
      this.readBacks = 1;
      this.epoch += 1;
    }
    const perStep = this.stepReads / Math.max(steps, 1);
    const perReadBack = this.readBackReads / this.readBacks;
    return {
      perStep,
      perReadBack,
      readBacks: this.readBacks,
      per100Steps: 100 * perStep + (100 / this.logEvery) * perReadBack,
    };
  }
}
