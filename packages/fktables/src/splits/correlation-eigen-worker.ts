import { parentPort, workerData } from 'node:worker_threads';
import type { BlockCovariance } from '../pseudodata/covariance-blocks.js';
import { correlationEigensystem } from './correlation-eigensystem.js';

/**
 * The worker thread of {@link startCorrelationEigensystems}: the correlation eigensystems of the
 * blocks it is given, posted back in one message, their arrays transferred.
 *
 * @packageDocumentation
 */

const eigensystems = (workerData as BlockCovariance[]).map(correlationEigensystem);
parentPort?.postMessage(
  eigensystems,
  eigensystems.flatMap(({ scale, values, vectors }) => [
    scale.buffer as ArrayBuffer,
    values.buffer as ArrayBuffer,
    vectors.data.buffer as ArrayBuffer,
  ]),
);
