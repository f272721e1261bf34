import { createHash } from 'node:crypto';
import type { Runcard } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';

/** What identifies a fit, so that a checkpoint is only resumed by the fit that wrote it. */
export interface RunFingerprint {
  /** SHA-256 (hex) of the runcard's settings in canonical JSON (keys sorted). */
  readonly runcardSha256: string;
  /** The replicas, 1-based, in the fit's order. */
  readonly replicas: readonly number[];
  /**
   * SHA-256 (hex) of the fit's numbers (x-grid, central data, pseudodata), when known: an input
   * file edited between a kill and a resume changes them. Absent in the check made before the
   * inputs are prepared.
   */
  readonly inputsSha256?: string;
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
 * A fingerprint taken before the inputs were prepared, completed with the hash of the numbers
 * the fit trains on (x-grid, central data, pseudodata).
 */
export function withInputsDigest(fingerprint: RunFingerprint, inputs: FitInputs): RunFingerprint {
  const hash = createHash('sha256');
  for (const array of [inputs.xGrid, inputs.centralData, inputs.pseudodata]) {
    hash.update(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  }
  return { ...fingerprint, inputsSha256: hash.digest('hex') };
}

/**
 * The fingerprint of a fit: a hash of every runcard setting (epochs, seeds, network, optimiser,
 * data, …, the order of keys in the file does not matter), the replicas and, given the prepared
 * inputs, a hash of the numbers they hold.
 *
 * @param runcard - the validated runcard
 * @param replicas - the replicas, 1-based
 * @param inputs - the fit's prepared inputs, if already prepared
 */
export function runFingerprint(
  runcard: Runcard,
  replicas: readonly number[],
  inputs?: FitInputs,
): RunFingerprint {
  const fingerprint = {
    runcardSha256: createHash('sha256').update(canonicalJson(runcard)).digest('hex'),
    replicas: [...replicas],
  };
  return inputs === undefined ? fingerprint : withInputsDigest(fingerprint, inputs);
}
