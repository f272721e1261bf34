import { createHash } from 'node:crypto';
import type { Runcard } from '@partonfit/core';

/** What identifies a fit, so that a checkpoint is only resumed by the fit that wrote it. */
export interface RunFingerprint {
  /** SHA-256 (hex) of the runcard's settings in canonical JSON (keys sorted). */
  readonly runcardSha256: string;
  /** The replicas, 1-based, in the fit's order. */
  readonly replicas: readonly number[];
}

/** JSON with the keys of every object sorted, so that equal settings give equal text. */
function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The fingerprint of a fit: a hash of every runcard setting (epochs, seeds, network, optimiser,
 * data, …, the order of keys in the file does not matter) and the replicas.
 *
 * @param runcard - the validated runcard
 * @param replicas - the replicas, 1-based
 */
export function runFingerprint(runcard: Runcard, replicas: readonly number[]): RunFingerprint {
  return {
    runcardSha256: createHash('sha256').update(canonicalJson(runcard)).digest('hex'),
    replicas: [...replicas],
  };
}
