export { deriveNamedSeed } from './named-seed.js';
export {
  deriveReplicaSeed,
  deriveReplicaSeeds,
  MAX_RUNCARD_SEED,
  type ReplicaSeeds,
  type RuncardSeeds,
  type SeedStream,
} from './replica-seeds.js';
export { SeededRandom } from './seeded-random.js';
