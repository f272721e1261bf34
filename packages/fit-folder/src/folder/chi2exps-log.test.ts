import { InputFileError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { chi2ExpsLogText, parseChi2ExpsLog, type Chi2ExpsEntry } from './chi2exps-log.js';

function entry(scale: number): Chi2ExpsEntry {
  return {
    trainingLoss: 100 * scale,
    validationLoss: [2 * scale, 3 * scale],
    validationChi2s: { NMC: 1.5 * scale, SLAC: 0.5 * scale, total: scale },
  };
}

describe('chi2ExpsLogText', () => {
  it("should write upstream's layout keyed by epochs done, in increasing order", () => {
    const text = chi2ExpsLogText(
      new Map([
        [200, entry(2)],
        [100, entry(1)],
      ]),
    );
    expect(text.endsWith('}\n')).toBe(true);
    const document = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(document)).toEqual(['100', '200']);
    expect(document['100']).toEqual({
      training_loss: 100,
      validation_loss: [2, 3],
      validation_chi2s: { NMC: 1.5, SLAC: 0.5, total: 1 },
    });
    expect(text.split('\n').slice(0, 3)).toEqual(['{', '  "100": {', '    "training_loss": 100,']);
  });

  it('should read back what it writes, with NaN as null and back', () => {
    const entries = new Map([
      [100, entry(1)],
      [200, { ...entry(2), trainingLoss: Number.NaN, validationLoss: 4 }],
    ]);
    const text = chi2ExpsLogText(entries);
    expect(text).toContain('"training_loss": null');
    expect(parseChi2ExpsLog(text, 'chi2exps.log')).toEqual(entries);
  });
});

describe('parseChi2ExpsLog', () => {
  it('should name the file and key of a malformed entry', () => {
    const bad = (text: string) => () => parseChi2ExpsLog(text, '/fit/chi2exps.log');
    expect(bad('{"100": ')).toThrow(InputFileError);
    expect(bad('[1, 2]')).toThrow(/chi2exps\.log: expected a JSON object/);
    expect(bad('{"x1": {}}')).toThrow(/x1: expected a positive integer epoch/);
    expect(bad('{"100": {"training_loss": "a"}}')).toThrow(/100\.training_loss: expected a number/);
    expect(
      bad('{"100": {"training_loss": 1, "validation_loss": [1, "b"], "validation_chi2s": {}}}'),
    ).toThrow(/100\.validation_loss/);
    expect(
      bad('{"100": {"training_loss": 1, "validation_loss": 1, "validation_chi2s": {"A": []}}}'),
    ).toThrow(/100\.validation_chi2s\.A/);
  });
});
