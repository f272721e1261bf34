import { basename, join, resolve } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { fitReplicaSource, listReplicaFolders, type FitReplicaSource } from '@partonfit/fit-folder';
import { loadFitRuncard } from './fit-runcard.js';
import type { ReplicaParameters } from './replica-parameters.js';
import { readReplicaWeights, type ReplicaWeightsMetadata } from './replica-weights-file.js';

/** One member of a fit's replica set. */
export interface FitMember {
  /** The member number: postfit's renumbered 1 … n, or the nnfit replica number. */
  readonly member: number;
  /** The weights file it was read from. */
  readonly file: string;
  readonly parameters: ReplicaParameters;
  /** The file's metadata; `metadata.replica` is the replica number the fit gave it. */
  readonly metadata: ReplicaWeightsMetadata;
}

/** The replicas of a fit folder, rebuilt from their weights. */
export interface FitReplicaSet {
  /** The fit's name (its folder's name). */
  readonly fit: string;
  readonly source: FitReplicaSource;
  /** The fit scale Q0 in GeV, the same for every member. */
  readonly q0: number;
  /** The members in increasing member order. */
  readonly members: readonly FitMember[];
}

/** Whether `path` is a fit folder: a folder holding `nnfit/` or `postfit/`. */
export async function isFitFolder(path: string): Promise<boolean> {
  return (await fitReplicaSource(path)) !== undefined;
}

/**
 * The replicas of a fit folder, each rebuilt from its `weights.h5` and checked against the fit's
 * `runcard.yml`: postfit's selection `postfit/replica_1 … replica_n` when `postfit/` exists, else
 * every `nnfit/replica_<r>`. (Postfit's `replica_0`, the average exportgrid, has no weights.)
 *
 * @throws RuncardError for a missing or invalid `runcard.yml`; InputFileError naming the file
 *   (and key) for a fit without replicas, a missing or corrupt `weights.h5`, or members of
 *   different Q0
 */
export async function loadFitReplicas(fitFolder: string): Promise<FitReplicaSet> {
  const folder = resolve(fitFolder);
  const fit = await loadFitRuncard(folder);
  const source = (await fitReplicaSource(folder)) ?? 'nnfit';
  const parent = join(folder, source);
  const numbers = (await listReplicaFolders(parent)).filter((member) => member > 0);
  if (numbers.length === 0) {
    throw new InputFileError({ file: parent, problem: 'no replica_<n> folders with weights' });
  }
  const members: FitMember[] = [];
  for (const member of numbers) {
    const file = join(parent, `replica_${member}`, 'weights.h5');
    const { parameters, metadata } = await readReplicaWeights(file, fit);
    const q0 = members[0]?.metadata.q0 ?? metadata.q0;
    if (Math.abs(metadata.q0 - q0) > 1e-12 * q0) {
      throw new InputFileError({
        file,
        key: 'q0',
        problem: `Q0 = ${metadata.q0} GeV, but ${members[0]?.file ?? ''} has ${q0} GeV`,
      });
    }
    members.push({ member, file, parameters, metadata });
  }
  return { fit: basename(folder), source, q0: members[0].metadata.q0, members };
}
