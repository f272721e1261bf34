import { InvalidArgumentError } from '../errors/index.js';
import { MAX_RUNCARD_SEED } from '../seeds/index.js';

/**
 * The replicas named on the command line (`--replicas`): a number (`7`), a range (`1-100`) or a
 * comma-separated list of both (`1-10,15,20-22`). Replicas are numbered from 1, as in
 * `nnfit/replica_<r>`.
 *
 * @returns the replicas, ascending, each once
 * @throws InvalidArgumentError - naming the part that is not a replica or a range of them
 */
export function parseReplicaSelection(text: string): number[] {
  const replicas = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    const first = Number(match?.[1]);
    const last = match?.[2] === undefined ? first : Number(match[2]);
    if (match === null || first < 1 || last < first || last > MAX_RUNCARD_SEED) {
      throw new InvalidArgumentError({
        argument: '--replicas',
        problem: `'${part.trim()}' is not a replica (1, 2, …) or a range of them like 1-100`,
      });
    }
    for (let replica = first; replica <= last; replica++) replicas.add(replica);
  }
  return [...replicas].sort((a, b) => a - b);
}

/** A selection written back compactly: `[1, 2, 3, 7]` → `1-3,7`. */
export function formatReplicaSelection(replicas: readonly number[]): string {
  const parts: string[] = [];
  let start = 0;
  for (let i = 1; i <= replicas.length; i++) {
    if (i < replicas.length && replicas[i] === replicas[i - 1] + 1) continue;
    const [first, last] = [replicas[start], replicas[i - 1]];
    parts.push(first === last ? `${first}` : `${first}-${last}`);
    start = i;
  }
  return parts.join(',');
}
