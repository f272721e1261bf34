import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackendRequest } from '@partonfit/backend';
import { listReplicaFolders } from '@partonfit/fit-folder';
import { readReplicaWeightsMetadata } from './replica-weights-file.js';

/** Backends that every installation has, so a fit's recorded one can always be used again. */
const ALWAYS_AVAILABLE: readonly BackendRequest[] = ['cpu', 'wasm'];

async function firstWeightsFile(fitFolder: string): Promise<string | undefined> {
  for (const source of ['nnfit', 'postfit']) {
    const parent = join(fitFolder, source);
    // a fit without this folder simply has no recorded backend there
    const replicas = await listReplicaFolders(parent).catch((): number[] => []);
    for (const replica of replicas) {
      const file = join(parent, `replica_${replica}`, 'weights.h5');
      if (
        await access(file).then(
          () => true,
          () => false,
        )
      )
        return file;
    }
  }
  return undefined;
}

/**
 * The backend to rebuild a fit's replicas on when none is asked for: the one that trained the
 * fit (recorded in its replicas' `weights.h5`) when it is `cpu` or `wasm`, so that exported files
 * and predictions reproduce the fit's own to the bit; otherwise `auto`.
 *
 * @throws InputFileError when the first replica's `weights.h5` exists but cannot be read
 */
export async function fitBackendRequest(fitFolder: string): Promise<BackendRequest> {
  const file = await firstWeightsFile(fitFolder);
  if (file === undefined) return 'auto';
  const { backend } = await readReplicaWeightsMetadata(file);
  return ALWAYS_AVAILABLE.find((candidate) => candidate === backend) ?? 'auto';
}
