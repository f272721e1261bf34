import { createHash } from 'node:crypto';
import { runcardDigest, type Runcard } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';

/** What identifies a fit, so that a checkpoint is only resumed by the fit that wrote it. */
export interface RunFingerprint {
  /** SHA-256 (hex) of the runcard's settings (`runcardDigest`). */
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
    runcardSha256: runcardDigest(runcard),
    replicas: [...replicas],
  };
  return inputs === undefined ? fingerprint : withInputsDigest(fingerprint, inputs);
}
