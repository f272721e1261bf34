import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  operatorLowerBand,
  operatorRecorder,
  type EvolutionOperator,
} from './evolution-operator.js';
import { evolutionSetup, kernelMatrixPlanOf, type EvolutionOptions } from './evolution-run.js';
import {
  joinOperatorParts,
  OPERATOR_PARTS,
  runOperatorPart,
  type OperatorPart,
  type OperatorPartJob,
  type OperatorPartStep,
} from './operator-parts.js';
import {
  abandonSharedKernels,
  sharedKernelMemory,
  type SharedKernelMemory,
} from './shared-kernel-matrices.js';
import type { TheoryCard } from './theory-card.js';

/** What {@link buildEvolutionOperatorInParallel} can report while it works. */
export interface ParallelBuildOptions {
  /** Called each time both halves have reached one more output scale (once per scale). */
  readonly onProgress?: (scalesDone: number, scales: number) => void;
}

const WORKER = new URL('./operator-part-worker.js', import.meta.url);

/** One half evolved in a worker thread, its steps in Q-grid order. */
function partInWorker(
  job: OperatorPartJob,
  onStep: () => void,
): { worker: Worker; steps: Promise<OperatorPartStep[]> } {
  // No inherited Node options: a runner's `--conditions=@partonfit/source` would send the
  // compiled worker to the TypeScript sources.
  const worker = new Worker(WORKER, { workerData: job, execArgv: [] });
  const steps = new Promise<OperatorPartStep[]>((resolve, reject) => {
    const received: OperatorPartStep[] = [];
    worker.on('message', (step: OperatorPartStep) => {
      received.push(step);
      onStep();
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code === 0) resolve(received);
      else reject(new Error(`the worker evolving the ${job.part} half exited with code ${code}`));
    });
  });
  return { worker, steps };
}

/**
 * Both halves in worker threads, which compute the kernel matrices together in `kernels`; when
 * one fails, the other is stopped.
 */
async function partsInWorkers(
  jobs: readonly OperatorPartJob[],
  kernels: SharedKernelMemory,
  onStep: (part: OperatorPart) => () => void,
): Promise<OperatorPartStep[][]> {
  const running = jobs.map((job) => partInWorker({ ...job, kernels }, onStep(job.part)));
  try {
    return await Promise.all(running.map(({ steps }) => steps));
  } catch (error) {
    abandonSharedKernels(kernels);
    await Promise.all(running.map(({ worker }) => worker.terminate()));
    throw error;
  }
}

/**
 * {@link buildEvolutionOperator} on two threads: the operator's columns split into the halves of
 * {@link OperatorPart}, each evolved in a worker thread, then joined — the same operator, bit for
 * bit, sooner where two cores are free: each worker does about half the work (theory 200 at NNLO
 * on NNPDF4.0's grid, a 2-vCPU virtual machine: 12.2 s of CPU time for both against 9.5 s on one
 * thread, the threads slowing each other down). The two workers compute the kernel matrices
 * together, each its share, in shared memory. Where the package runs from its
 * TypeScript sources (no compiled worker beside this module) the halves run one after the other
 * on this thread, each computing the kernel matrices.
 *
 * @param card - the theory card
 * @param options - the grids and numerical settings
 * @throws InvalidArgumentError for a bad x-grid or Q grid (a scale below Q0, decreasing scales)
 * @throws InputFileError naming the card's key for settings not supported here
 */
export async function buildEvolutionOperatorInParallel(
  card: TheoryCard,
  options: EvolutionOptions,
  { onProgress }: ParallelBuildOptions = {},
): Promise<EvolutionOperator> {
  const setup = evolutionSetup(card, options);
  const lowerBand = operatorLowerBand(setup);
  const scales = options.qGrid.length;
  const done = new Map<OperatorPart, number>(OPERATOR_PARTS.map((part) => [part, 0]));
  let reported = 0;
  const progress = (part: OperatorPart) => () => {
    done.set(part, (done.get(part) ?? 0) + 1);
    const scalesDone = Math.min(...done.values());
    if (scalesDone > reported) {
      reported = scalesDone;
      onProgress?.(scalesDone, scales);
    }
  };
  const jobs = OPERATOR_PARTS.map((part) => ({ card, options, part, lowerBand }));
  const n = setup.basis.xGrid.length;
  const kernels = () =>
    sharedKernelMemory(kernelMatrixPlanOf(card, setup, options.qGrid).kernels.length, n);
  const [quarkSinglet, gluon] = existsSync(fileURLToPath(WORKER))
    ? await partsInWorkers(jobs, kernels(), progress)
    : jobs.map((job) => {
        const steps: OperatorPartStep[] = [];
        runOperatorPart(job, (step) => {
          steps.push(step);
          progress(job.part)();
        });
        return steps;
      });
  const recorder = operatorRecorder(card, setup, options.qGrid);
  quarkSinglet.forEach((step, q) => {
    recorder.record(joinOperatorParts(step, gluon[q], n), step.nf, step.alphaS);
  });
  return recorder.operator();
}
