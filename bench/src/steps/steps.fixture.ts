import * as tf from '@tensorflow/tfjs-core';
import { gaussIntegrationGrid } from '@partonfit/layers';
import { buildTrainingParts, type TrainingParts } from '@partonfit/trainer';
import { buildWorkload, type BenchWorkload } from '../workloads/build-workload.js';
import { TINY_WORKLOAD } from '../workloads/workloads.fixture.js';

/** The integration grid of the step tests (small, for speed). */
export const TEST_INTEGRATION = gaussIntegrationGrid(20);

/** The tiny workload for three replicas. */
export const TINY_FIT: BenchWorkload = buildWorkload(TINY_WORKLOAD, [1, 2, 3]);

/** Fresh training parts of the tiny fit: the same initial weights every time. */
export function tinyParts(): TrainingParts {
  return buildTrainingParts(TINY_FIT.runcard, TINY_FIT.inputs, TEST_INTEGRATION);
}

/** Frees training parts. */
export function disposeParts(parts: TrainingParts): void {
  parts.stopping.dispose();
  parts.optimizer.dispose();
  parts.objective.dispose();
  parts.model.dispose();
}

/** Every weight of the model as plain numbers, in the model's order. */
export function weightValues(parts: TrainingParts): Float32Array[] {
  return parts.model.weights().map((weight) => Float32Array.from(weight.dataSync()));
}

/** The largest absolute difference between two lists of equally shaped arrays. */
export function maxDifference(a: readonly Float32Array[], b: readonly Float32Array[]): number {
  let largest = 0;
  a.forEach((values, i) => {
    values.forEach((value, k) => {
      largest = Math.max(largest, Math.abs(value - b[i][k]));
    });
  });
  return largest;
}

/** Replica r's slice of each `(replicas, …)` array. */
export function replicaSlice(values: readonly Float32Array[], r: number, replicas: number) {
  return values.map((array) => {
    const size = array.length / replicas;
    return array.slice(r * size, (r + 1) * size);
  });
}

/** `tf.memory().numTensors`. */
export function tensorCount(): number {
  return tf.memory().numTensors;
}
