import { join } from 'node:path';
import type { Runcard } from '@partonfit/core';
import { loadFitFolderRuncard } from '@partonfit/fit-folder';
import { runFingerprint } from '../checkpoint/run-fingerprint.js';
import { replicaArchitecture, type ReplicaArchitecture } from './replica-parameters.js';

/** A fit folder's `runcard.yml`, and what the replicas' weights are checked against. */
export interface FitRuncard {
  /** `<fit>/runcard.yml`. */
  readonly file: string;
  readonly runcard: Runcard;
  /** The architecture of replica r, from 1 (each replica's own with per-replica parameters). */
  readonly architecture: (replica: number) => ReplicaArchitecture;
  /** The runcard's hash, which every replica's `weights.h5` must carry. */
  readonly runcardSha256: string;
}

/**
 * Loads and validates the runcard a fit ran with, `<fit>/runcard.yml`.
 *
 * @throws RuncardError naming the file when it is missing or invalid
 */
export async function loadFitRuncard(fitFolder: string): Promise<FitRuncard> {
  const file = join(fitFolder, 'runcard.yml');
  const { runcard } = await loadFitFolderRuncard(fitFolder);
  return {
    file,
    runcard,
    architecture: (replica) => replicaArchitecture(runcard, replica),
    runcardSha256: runFingerprint(runcard, []).runcardSha256,
  };
}
