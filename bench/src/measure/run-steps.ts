import { InvalidArgumentError } from '@partonfit/core';
import { MemoryTrace } from '../instrument/memory-trace.js';
import { installReadCounter } from '../instrument/read-counter.js';
import type { BenchStep } from '../steps/bench-step.js';
import { TimedStep, type ReadCounts } from './timed-step.js';

/** How {@link runSteps} and {@link runPairedSteps} run step formulations. */
export interface RunStepsOptions {
  /** Steps run first and not measured (at least 1: the first step builds kernels and state). */
  readonly warmup: number;
  /** Steps measured. */
  readonly steps: number;
  /** Read-back every this many steps (counting from the first warm-up step), as the trainer. */
  readonly logEvery: number;
  /**
   * Give up (and report a skip) once the run is projected to take longer than this, in seconds,
   * from the time of the steps done so far. `Infinity` never gives up.
   */
  readonly budgetSeconds: number;
}

/** What {@link runSteps} measured. */
export interface MeasuredSteps {
  readonly status: 'measured';
  /** Wall time of the very first step (kernel set-up, optimiser slots), ms. */
  readonly firstStepMs: number;
  /** Wall time of each measured step, ms (its read-back included when it ends an interval). */
  readonly stepMs: readonly number[];
  readonly reads: ReadCounts;
  /** Tensors and bytes after each measured step. */
  readonly memory: MemoryTrace;
}

/** A run given up because it would exceed its budget. */
export interface SkippedSteps {
  readonly status: 'skipped';
  readonly reason: string;
}

function checkOptions(options: RunStepsOptions): void {
  for (const name of ['warmup', 'steps', 'logEvery'] as const) {
    const value = options[name];
    if (!Number.isInteger(value) || value < 1) {
      throw new InvalidArgumentError({
        argument: name,
        problem: `expected an integer ≥ 1, got ${value}`,
      });
    }
  }
}

/**
 * Whether to give up: after the second round (the first may carry one-off costs) or when the
 * first alone exceeds the budget, if the rounds done plus the remaining ones at the last round's
 * time exceed the budget. Returns the reason, or undefined to go on.
 */
function overBudget(
  options: RunStepsOptions,
  start: number,
  round: number,
  lastRoundMs: number,
): string | undefined {
  const rounds = options.warmup + options.steps;
  const done = (performance.now() - start) / 1000;
  const projected = done + ((rounds - round - 1) * lastRoundMs) / 1000;
  if ((round >= 1 || done > options.budgetSeconds) && projected > options.budgetSeconds) {
    return `projected ${projected.toFixed(0)} s for ${rounds} steps (${lastRoundMs.toFixed(0)} ms per step) exceeds the budget of ${options.budgetSeconds} s`;
  }
  return undefined;
}

/**
 * Runs `warmup + steps` steps of a formulation, timing each (`run`, plus the read-back after the
 * steps that end a `logEvery` interval), counting host read-backs inside steps and at read-back
 * points, and recording the tensors alive after each measured step. The step's own wall time is
 * measured: on the synchronous backends (cpu, wasm, tensorflow on the CPU) every kernel has run
 * when its op returns, so nothing is read back to time a step.
 *
 * @throws InvalidArgumentError - for a warm-up, steps or logEvery below 1
 */
export async function runSteps(
  step: BenchStep,
  options: RunStepsOptions,
): Promise<MeasuredSteps | SkippedSteps> {
  checkOptions(options);
  const memory = new MemoryTrace();
  const stepMs: number[] = [];
  const counter = installReadCounter();
  const timed = new TimedStep(step, options.logEvery, counter);
  let firstStepMs = 0;
  const start = performance.now();
  try {
    for (let round = 0; round < options.warmup + options.steps; round++) {
      const elapsed = await timed.next();
      if (round === 0) firstStepMs = elapsed;
      if (round >= options.warmup) {
        stepMs.push(elapsed);
        memory.record(round);
      }
      const reason = overBudget(options, start, round, elapsed);
      if (reason !== undefined) return { status: 'skipped', reason };
    }
    return { status: 'measured', firstStepMs, stepMs, reads: await timed.reads(), memory };
  } finally {
    counter.uninstall();
  }
}

/** What {@link runPairedSteps} measured. */
export interface MeasuredPair {
  readonly status: 'measured';
  /** The reference formulation's step times, ms. */
  readonly referenceMs: readonly number[];
  /** The compared formulation's step times, ms. */
  readonly comparedMs: readonly number[];
  /** The compared formulation's host reads. */
  readonly comparedReads: ReadCounts;
}

/**
 * Runs two formulations on the same training parts in alternation — warm-up steps of each, then
 * `steps` rounds of one reference step and one compared step, each timed — so that both see the
 * same machine load and the same state of the backend; each keeps its own epoch counter and
 * read-back interval (`logEvery` for the reference, `comparedLogEvery` for the other).
 *
 * @throws InvalidArgumentError - for a warm-up, steps or logEvery below 1
 */
export async function runPairedSteps(
  reference: BenchStep,
  compared: BenchStep,
  options: RunStepsOptions & { readonly comparedLogEvery: number },
): Promise<MeasuredPair | SkippedSteps> {
  checkOptions(options);
  checkOptions({ ...options, logEvery: options.comparedLogEvery });
  const counter = installReadCounter();
  const first = new TimedStep(reference, options.logEvery, counter);
  const second = new TimedStep(compared, options.comparedLogEvery, counter);
  const referenceMs: number[] = [];
  const comparedMs: number[] = [];
  const start = performance.now();
  try {
    for (let round = 0; round < options.warmup + options.steps; round++) {
      const a = await first.next();
      const b = await second.next();
      if (round >= options.warmup) {
        referenceMs.push(a);
        comparedMs.push(b);
      }
      const reason = overBudget(options, start, round, a + b);
      if (reason !== undefined) return { status: 'skipped', reason };
    }
    return { status: 'measured', referenceMs, comparedMs, comparedReads: await second.reads() };
  } finally {
    counter.uninstall();
  }
}
