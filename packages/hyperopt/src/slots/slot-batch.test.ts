import { deriveReplicaSeed, parseRuncard, replicaParameters } from '@partonfit/core';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { HYPEROPT_RUNCARD } from '../scan/scan.fixture.js';
import { batchSlots, scanInputLayout, slotBatch, slotNetworkSeed } from './slot-batch.js';

const ADAM = { optimizer: { optimizer_name: 'Adam', learning_rate: 2e-3, clipnorm: 1e-5 } };
const SIGMOID = { nodes_per_layer: [12, 8], activation_per_layer: ['sigmoid', 'linear'] };

describe("a batch's slots: every (trial, fold, replica) a row of one model", () => {
  it('lays out trial by trial, fold by fold, replica by replica', () => {
    expect(batchSlots(2, [0, 2], 2).map((slot) => [slot.trial, slot.fold, slot.replica])).toEqual([
      [0, 0, 1],
      [0, 0, 2],
      [0, 2, 1],
      [0, 2, 2],
      [1, 0, 1],
      [1, 0, 2],
      [1, 2, 1],
      [1, 2, 2],
    ]);
  });

  it("seeds a replica's first fold as a fit does, its other folds afresh, whatever the trial", () => {
    expect(slotNetworkSeed(2, 5, 0)).toBe(deriveReplicaSeed(2, 'nnseed', 5));
    const seeds = [0, 1, 2].map((fold) => slotNetworkSeed(2, 5, fold));
    expect(new Set(seeds).size).toBe(3);
  });

  it("gives each slot its trial's settings and its fold's inputs row, grouped by network", async () => {
    const text = await readFile(HYPEROPT_RUNCARD, 'utf8');
    const batch = slotBatch(text, HYPEROPT_RUNCARD, [SIGMOID, ADAM, {}], 2);
    expect(batch.slots).toHaveLength(3 * 3 * 2);
    // Adam and Nadam share one update formula, so the rows go by architecture: the sigmoid
    // network (trial 0) first, then the tanh ones of Adam (trial 1) and Nadam (trial 2)
    const trialOfRow = batch.rows.map((slot) => batch.slots[slot - 1].trial);
    expect(trialOfRow).toEqual(
      [0, 1, 2].flatMap((trial) => Array.from({ length: 6 }, () => trial)),
    );
    batch.rows.forEach((slot, row) => {
      const { trial, fold, replica } = batch.slots[slot - 1];
      const parameters = replicaParameters(batch.runcard, slot);
      expect(parameters.optimizer.optimizer_name).toBe(trial === 1 ? 'Adam' : 'Nadam');
      expect(parameters.nodes_per_layer).toEqual(trial === 0 ? [12, 8] : [25, 20, 8]);
      expect(batch.inputRows[row]).toBe(fold * 2 + replica - 1);
      expect(batch.networkSeeds[row]).toBe(slotNetworkSeed(batch.runcard.nnseed, replica, fold));
    });
    const layout = scanInputLayout(batch.runcard, 2);
    expect(layout.replicas).toEqual([1, 2, 1, 2, 1, 2]);
    expect(layout.folds.rowFold).toEqual([0, 0, 1, 1, 2, 2]);
    expect(layout.folds.datasets[1]).toEqual(['CLOSURE_NUB_F2', 'CLOSURE_F2C']);
    // the scan's runcard itself is untouched
    expect(parseRuncard(text).runcard.parameters_per_replica).toBeUndefined();
  });
});
