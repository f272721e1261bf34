import { describe, expect, it } from 'vitest';
import { smallClosureRuncard } from '../training/training.fixture.js';
import { runFingerprint } from './run-fingerprint.js';

describe('runFingerprint', () => {
  it('should hash the settings, not the order of their keys', async () => {
    const runcard = await smallClosureRuncard({ epochs: 100 });
    const reordered = Object.fromEntries(Object.entries(runcard).reverse()) as typeof runcard;
    const fingerprint = runFingerprint(runcard, [1, 2]);
    expect(fingerprint.runcardSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(runFingerprint(reordered, [1, 2])).toEqual(fingerprint);
    expect(fingerprint.replicas).toEqual([1, 2]);
  });

  it('should change with any setting', async () => {
    const runcard = await smallClosureRuncard({ epochs: 100 });
    const hash = runFingerprint(runcard, [1]).runcardSha256;
    const changed = [
      { ...runcard, nnseed: runcard.nnseed + 1 },
      { ...runcard, parameters: { ...runcard.parameters, epochs: 101 } },
      { ...runcard, dataset_inputs: runcard.dataset_inputs.slice(1) },
    ];
    for (const other of changed) {
      expect(runFingerprint(other, [1]).runcardSha256).not.toBe(hash);
    }
  });
});
