import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BlockCovariance } from '../pseudodata/covariance-blocks.js';
import { correlationEigensystem, type CorrelationEigensystem } from './correlation-eigensystem.js';

const WORKER = new URL('./correlation-eigen-worker.js', import.meta.url);

/**
 * The work (Σ size³ of the blocks) below which a worker thread is not started: 300³, ~40 ms of
 * eigen-decomposition, about what starting a worker and loading the package in it costs.
 */
const MIN_PARALLEL_WORK = 300 ** 3;

/**
 * The main thread's other work while the worker diagonalises, as a fraction of all the
 * eigen-decompositions' time: the sampling covariance's Cholesky factors, the pseudodata and
 * the experimental χ²'s inverses took 0.3 of it on the NNPDF4.0-sized bench set-up.
 */
const MAIN_THREAD_HEAD_START = 0.3;

/** Options of {@link startCorrelationEigensystems}. */
export interface CorrelationEigensystemsOptions {
  /**
   * The work this thread does before it asks for the eigensystems, as a fraction of all the
   * eigen-decompositions' work (default 0.3); the blocks are shared so that both threads finish
   * together.
   */
  readonly mainThreadHeadStart?: number;
}

/** Correlation eigensystems under way (see {@link startCorrelationEigensystems}). */
export interface PendingCorrelationEigensystems {
  /** Indices of the blocks sent to the worker thread (none when all stay on this thread). */
  readonly inWorker: readonly number[];
  /** The blocks' eigensystems, in order: this thread's share computed now, the worker's awaited. */
  readonly eigensystems: () => Promise<CorrelationEigensystem[]>;
  /** Stops the worker, if one is running (when the set-up fails before the eigensystems are asked for). */
  readonly stop: () => Promise<void>;
}

/**
 * Indices of the blocks a worker thread takes: longest first, each to whichever thread has less
 * work so far (cost size³), this thread starting with `headStart` × the total.
 */
function workerShare(blocks: readonly BlockCovariance[], headStart: number): Set<number> {
  const cost = blocks.map(({ size }) => size ** 3);
  const total = cost.reduce((sum, c) => sum + c, 0);
  const longestFirst = blocks.map((_, b) => b).sort((a, b) => cost[b] - cost[a] || a - b);
  const share = new Set<number>();
  let workerLoad = 0;
  let mainLoad = headStart * total;
  for (const b of longestFirst) {
    if (workerLoad <= mainLoad) {
      share.add(b);
      workerLoad += cost[b];
    } else {
      mainLoad += cost[b];
    }
  }
  return share;
}

/** A worker thread diagonalising blocks (see {@link eigensystemsInWorker}). */
interface EigenWorker {
  readonly worker: Worker;
  /** The eigensystems of the worker's blocks, or undefined when the worker failed in any way. */
  readonly result: Promise<CorrelationEigensystem[] | undefined>;
  /** Whether the worker has answered or failed. */
  readonly settled: () => boolean;
}

function eigensystemsInWorker(blocks: readonly BlockCovariance[]): EigenWorker {
  // No inherited Node options: a runner's `--conditions=@partonfit/source` would send the
  // compiled worker to the TypeScript sources.
  const worker = new Worker(WORKER, { workerData: blocks, execArgv: [] });
  let settled = false;
  const result = new Promise<CorrelationEigensystem[] | undefined>((resolve) => {
    const settle = (eigensystems: CorrelationEigensystem[] | undefined) => {
      settled = true;
      resolve(eigensystems);
    };
    worker.once('message', (eigensystems: CorrelationEigensystem[]) => {
      settle(eigensystems);
    });
    worker.once('error', () => {
      settle(undefined);
    });
    worker.once('exit', () => {
      settle(undefined);
    });
  });
  return { worker, result, settled: () => settled };
}

/**
 * Starts the correlation eigensystems of a covariance's blocks (see
 * {@link correlationEigensystem}) on two threads: the longest blocks go to a worker thread at
 * once, the others are computed on this thread when {@link PendingCorrelationEigensystems.eigensystems}
 * is called, so the caller's work in between overlaps the worker's. Each eigensystem is the same,
 * bit for bit, as on one thread (the same float64 code on the same block).
 *
 * The blocks stay on this thread when their work is small (Σ size³ below 300³), where the
 * package runs from its TypeScript sources (no compiled worker beside this module), and for a
 * worker that fails: its blocks are then computed here, which throws the typed error of a block
 * that cannot be diagonalised.
 *
 * @param blocks - the covariance's independent blocks, (size, size) each
 */
export function startCorrelationEigensystems(
  blocks: readonly BlockCovariance[],
  { mainThreadHeadStart = MAIN_THREAD_HEAD_START }: CorrelationEigensystemsOptions = {},
): PendingCorrelationEigensystems {
  const work = blocks.reduce((sum, { size }) => sum + size ** 3, 0);
  const share =
    work >= MIN_PARALLEL_WORK && existsSync(fileURLToPath(WORKER))
      ? workerShare(blocks, mainThreadHeadStart)
      : new Set<number>();
  const inWorker =
    share.size > 0 ? eigensystemsInWorker(blocks.filter((_, b) => share.has(b))) : undefined;
  return {
    inWorker: blocks.flatMap((_, b) => (share.has(b) ? [b] : [])),
    eigensystems: async () => {
      const here = blocks.map((block, b) =>
        share.has(b) ? undefined : correlationEigensystem(block),
      );
      const fromWorker = (await inWorker?.result) ?? [];
      const workerBlocks = blocks.filter((_, b) => share.has(b));
      const computed =
        fromWorker.length === workerBlocks.length
          ? fromWorker
          : workerBlocks.map(correlationEigensystem);
      let next = 0;
      return here.map((eigensystem) => eigensystem ?? computed[next++]);
    },
    stop: async () => {
      if (inWorker !== undefined && !inWorker.settled()) await inWorker.worker.terminate();
    },
  };
}
