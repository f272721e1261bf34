import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { mix32 } from './mix.js';
import { deriveReplicaSeed, deriveReplicaSeeds } from './replica-seeds.js';
import { deriveNamedSeed } from './named-seed.js';

const runcardSeeds = { nnseed: 2, trvlseed: 3, mcseed: 1 };

describe('deriveReplicaSeeds', () => {
  it('should keep the documented seeds stable (they are part of every fit’s reproducibility)', () => {
    // Changing these numbers changes every fit made with partonfit: only with a major version.
    expect(deriveReplicaSeeds(runcardSeeds, 1)).toEqual(PINNED_REPLICA_1);
    expect(deriveReplicaSeeds(runcardSeeds, 100)).toEqual(PINNED_REPLICA_100);
  });

  it('should follow the documented formula mix32(mix32(base ^ tag) + r·0x9E3779B9)', () => {
    const tag = 0x6e6e7365; // "nnse"
    const expected = mix32(mix32(2 ^ tag) + Math.imul(17, 0x9e3779b9));
    expect(deriveReplicaSeed(2, 'nnseed', 17)).toBe(expected);
  });

  it('should give replica r the same seeds alone as in a fit of replicas 1–100', () => {
    const together = Array.from({ length: 100 }, (_, i) => deriveReplicaSeeds(runcardSeeds, i + 1));
    expect(deriveReplicaSeeds(runcardSeeds, 7)).toEqual(together[6]);
    expect(deriveReplicaSeeds(runcardSeeds, 100)).toEqual(together[99]);
  });

  it('should give distinct seeds to distinct replicas and to distinct streams', () => {
    const nnseeds = new Set<number>();
    for (let replica = 1; replica <= 10_000; replica++) {
      nnseeds.add(deriveReplicaSeed(2, 'nnseed', replica));
    }
    expect(nnseeds.size).toBe(10_000);
    const sameBase = { nnseed: 5, trvlseed: 5, mcseed: 5 };
    const seeds = deriveReplicaSeeds(sameBase, 1);
    expect(new Set([seeds.nnseed, seeds.trvlseed, seeds.mcseed]).size).toBe(3);
  });

  it('should return unsigned 32-bit integers', () => {
    for (let replica = 1; replica <= 1000; replica++) {
      const seed = deriveReplicaSeed(4_000_000_000, 'mcseed', replica);
      expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
    }
  });

  it('should reject replica numbers that are not positive integers and seeds out of range', () => {
    expect(() => deriveReplicaSeed(1, 'nnseed', 0)).toThrow(
      /replica: expected a positive integer \(replicas are numbered from 1\), got 0/,
    );
    expect(() => deriveReplicaSeed(1, 'nnseed', 2.5)).toThrow(InvalidArgumentError);
    expect(() => deriveReplicaSeed(-3, 'trvlseed', 1)).toThrow(
      /trvlseed: expected an integer between 0 and 4294967295, got -3/,
    );
  });
});

// Computed with an independent Python implementation of the documented formula.
const PINNED_REPLICA_1 = {
  replica: 1,
  nnseed: 2868401482,
  trvlseed: 159627443,
  mcseed: 1179020243,
};
const PINNED_REPLICA_100 = {
  replica: 100,
  nnseed: 2470908197,
  trvlseed: 271271931,
  mcseed: 3247590910,
};

describe('deriveNamedSeed', () => {
  it('should depend on the seed and the name only, differently for different names', () => {
    const seeds = ['HERACOMBCCEM', 'SLACP', 'NMC', 'BCDMSP'].map((name) =>
      deriveNamedSeed(7, name),
    );
    expect(new Set(seeds).size).toBe(4);
    expect(deriveNamedSeed(7, 'SLACP')).toBe(seeds[1]);
    expect(deriveNamedSeed(8, 'SLACP')).not.toBe(seeds[1]);
    for (const seed of seeds)
      expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
  });
});
