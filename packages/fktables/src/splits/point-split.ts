import {
  deriveNamedSeed,
  deriveReplicaSeed,
  InvalidArgumentError,
  SeededRandom,
} from '@partonfit/core';

/** Where one dataset sits on the data axis, and the fraction of it used for training. */
export interface DatasetSpan {
  /** Dataset name; the split of a dataset depends on its name, not on its neighbours. */
  readonly name: string;
  /** First data point of the dataset. */
  readonly offset: number;
  /** Number of data points (after cuts). */
  readonly ndata: number;
  /** Fraction of the points that go to training, in [0, 1] (runcard `frac`). */
  readonly frac: number;
}

/** How the replicas' training/validation splits are seeded. */
export interface SplitSeeding {
  /** The runcard's `trvlseed`. */
  readonly trvlseed: number;
  /** The replicas, 1-based, in the order of the first axis of the result. */
  readonly replicas: readonly number[];
  /** Upstream's `same_trvl_per_replica`: every replica uses replica 1's split. */
  readonly sameForAllReplicas?: boolean;
}

/** The seed of replica `replica`'s split, honouring `sameForAllReplicas`. */
export function splitSeed(seeding: SplitSeeding, replica: number): number {
  return deriveReplicaSeed(seeding.trvlseed, 'trvlseed', seeding.sameForAllReplicas ? 1 : replica);
}

/** Fisher–Yates shuffle of `0 … count − 1` driven by `random`. */
export function shuffledIndices(count: number, random: SeededRandom): Int32Array {
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random.uniform() * (i + 1));
    const kept = order[i];
    order[i] = order[j];
    order[j] = kept;
  }
  return order;
}

/**
 * NNPDF4.0's data-point split: for each replica and dataset, `floor(ndata · frac)` points
 * chosen at random go to training, the rest to validation. A dataset too small for one training
 * point (`floor(ndata · frac) = 0`, e.g. a single point) puts one random point in training with
 * probability `frac` — unlike upstream, replicas may then have different training counts,
 * because the masks are multiplications, not gathers that need equal sizes.
 *
 * Each dataset is shuffled by its own stream, `deriveNamedSeed(splitSeed(r), name)`, so replica
 * r's split of a dataset depends only on the seed, the replica and the dataset.
 *
 * @returns the training masks, (replicas, data), 1 = training point, 0 = validation point
 */
export function trainingPointMasks(
  datasets: readonly DatasetSpan[],
  seeding: SplitSeeding,
): Uint8Array {
  const ndata = datasets.reduce((end, span) => Math.max(end, span.offset + span.ndata), 0);
  for (const span of datasets) {
    if (!(span.frac >= 0 && span.frac <= 1)) {
      throw new InvalidArgumentError({
        argument: `frac of ${span.name}`,
        problem: `expected a fraction in [0, 1], got ${span.frac}`,
      });
    }
  }
  const masks = new Uint8Array(seeding.replicas.length * ndata);
  seeding.replicas.forEach((replica, r) => {
    const seed = splitSeed(seeding, replica);
    for (const span of datasets) {
      const random = new SeededRandom(deriveNamedSeed(seed, span.name));
      const order = shuffledIndices(span.ndata, random);
      let training = Math.floor(span.ndata * span.frac);
      if (training === 0 && span.ndata > 0 && random.uniform() < span.frac) training = 1;
      const row = r * ndata + span.offset;
      for (let k = 0; k < training; k++) masks[row + order[k]] = 1;
    }
  });
  return masks;
}
