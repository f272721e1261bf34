import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { deriveNamedSeed, deriveReplicaSeed, parseRuncard } from '@partonfit/core';
import { gaussIntegrationGrid } from '@partonfit/layers';
import { describe, expect, it } from 'vitest';
import { ReplicaPdfModel, replicaModelSeeds } from './pdf-model.js';

const CLOSURE = fileURLToPath(new URL('../../../../examples/closure.yml', import.meta.url));

describe("the model's seeds", () => {
  it("seed replica r from nnseed, or each row from the seeds given (a scan's folds)", async () => {
    const { runcard } = parseRuncard(await readFile(CLOSURE, 'utf8'));
    const own = replicaModelSeeds(runcard, [4, 9]);
    const base = deriveReplicaSeed(runcard.nnseed, 'nnseed', 4);
    expect(own.networkLayers[0]).toEqual([base, base + 1, base + 2]);
    expect(own.preprocessing[0]).toBe(deriveNamedSeed(base, 'preprocessing'));
    const given = replicaModelSeeds(runcard, [4, 9], [100, 7]);
    expect(given.networkLayers).toEqual([
      [100, 101, 102],
      [7, 8, 9],
    ]);
    expect(given.preprocessing).toEqual([
      deriveNamedSeed(100, 'preprocessing'),
      deriveNamedSeed(7, 'preprocessing'),
    ]);
    expect(
      () =>
        new ReplicaPdfModel(runcard, [1, 2], Float64Array.from([0.1]), gaussIntegrationGrid(4), {
          networkSeeds: [1],
        }),
    ).toThrow(/networkSeeds: expected one seed per row \(2\), got 1/);
  });
});
