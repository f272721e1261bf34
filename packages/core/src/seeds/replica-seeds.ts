import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { positiveInteger } from '../validate/validators.js';
import { GOLDEN_GAMMA, mix32 } from './mix.js';

/** The three seeds of an n3fit-style runcard. */
export interface RuncardSeeds {
  /** Seeds the network weights and preprocessing exponents. */
  readonly nnseed: number;
  /** Seeds the training/validation split. */
  readonly trvlseed: number;
  /** Seeds the Monte Carlo pseudodata. */
  readonly mcseed: number;
}

/** What a seed is used for; each has its own stream so the seeds never coincide. */
export type SeedStream = keyof RuncardSeeds;

/** The seeds of one replica, each an unsigned 32-bit integer. */
export interface ReplicaSeeds extends RuncardSeeds {
  /** The replica, 1-based as in `nnfit/replica_<r>`. */
  readonly replica: number;
}

/** Per-stream constants, the first 32 bits of the ASCII names, so streams differ. */
const STREAM_TAG: Record<SeedStream, number> = {
  nnseed: 0x6e6e7365, // "nnse"
  trvlseed: 0x7472766c, // "trvl"
  mcseed: 0x6d637365, // "mcse"
};

/** Largest seed a runcard may give: seeds are unsigned 32-bit integers. */
export const MAX_RUNCARD_SEED = 0xffffffff;

/**
 * The seed of replica `replica` for one purpose, derived from the runcard seed alone:
 *
 *     seed(base, stream, r) = mix32( mix32(base XOR tag(stream)) + r · 0x9E3779B9  mod 2³² )
 *
 * where `mix32` is MurmurHash3's 32-bit finaliser and `tag` is a fixed constant per stream. It
 * depends on nothing but (base, stream, r), so replica r gets the same seed whether it is fitted
 * alone, with replicas 1–100 or with any other set; for fixed (base, stream) distinct replicas
 * get distinct seeds (both steps are bijections of the 32-bit integers).
 *
 * @param baseSeed - the runcard's seed, an integer in [0, 2³²)
 * @param stream - which runcard seed it is
 * @param replica - the replica, a positive integer
 * @returns an unsigned 32-bit integer
 */
export function deriveReplicaSeed(baseSeed: number, stream: SeedStream, replica: number): number {
  if (!Number.isInteger(baseSeed) || baseSeed < 0 || baseSeed > MAX_RUNCARD_SEED) {
    throw new InvalidArgumentError({
      argument: stream,
      problem: `expected an integer between 0 and ${MAX_RUNCARD_SEED}, got ${baseSeed}`,
    });
  }
  positiveInteger(replica, 'replica', { note: 'replicas are numbered from 1' });
  if (replica > MAX_RUNCARD_SEED) {
    throw new InvalidArgumentError({
      argument: 'replica',
      problem: `expected at most ${MAX_RUNCARD_SEED}, got ${replica}`,
    });
  }
  const streamBase = mix32(baseSeed ^ STREAM_TAG[stream]);
  return mix32(streamBase + Math.imul(replica, GOLDEN_GAMMA));
}

/**
 * All seeds of one replica. See {@link deriveReplicaSeed} for the derivation, which makes a
 * replica's seeds — and so its pseudodata, split, initial weights and whole trajectory — the
 * same whether it is fitted alone or together with others.
 */
export function deriveReplicaSeeds(seeds: RuncardSeeds, replica: number): ReplicaSeeds {
  return {
    replica,
    nnseed: deriveReplicaSeed(seeds.nnseed, 'nnseed', replica),
    trvlseed: deriveReplicaSeed(seeds.trvlseed, 'trvlseed', replica),
    mcseed: deriveReplicaSeed(seeds.mcseed, 'mcseed', replica),
  };
}
