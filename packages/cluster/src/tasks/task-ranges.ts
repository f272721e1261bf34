import { positiveInteger } from '@partonfit/core';

/**
 * The replicas split into tasks of at most `perTask` consecutive entries of the selection, in
 * order: `1-10` with 4 per task gives `[1-4], [5-8], [9-10]`.
 *
 * @param replicas - the selection, ascending (see `parseReplicaSelection`)
 * @param perTask - replicas per task, a positive integer
 * @throws InvalidArgumentError for a `perTask` that is not a positive integer
 */
export function taskRanges(replicas: readonly number[], perTask: number): number[][] {
  positiveInteger(perTask, '--per-task');
  const tasks: number[][] = [];
  for (let first = 0; first < replicas.length; first += perTask) {
    tasks.push(replicas.slice(first, first + perTask));
  }
  return tasks;
}
