import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Chi2ExpsLog,
  chi2ExpsLogText,
  parseChi2ExpsLog,
  type Chi2ExpsEntry,
} from './chi2exps-log.js';

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

describe('Chi2ExpsLog', () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'partonfit-chi2exps-'));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('should rewrite the whole log at every append, leaving no temporary files', async () => {
    const file = join(folder, 'chi2exps.log');
    const log = new Chi2ExpsLog(file);
    await log.append(100, entry(1));
    expect([...parseChi2ExpsLog(await readFile(file, 'utf8'), file).keys()]).toEqual([100]);
    await log.append(200, entry(2));
    expect(parseChi2ExpsLog(await readFile(file, 'utf8'), file)).toEqual(
      new Map([
        [100, entry(1)],
        [200, entry(2)],
      ]),
    );
    expect(await readdir(folder)).toEqual(['chi2exps.log']);
  });

  it('should keep appends in call order without awaiting each', async () => {
    const file = join(folder, 'chi2exps.log');
    const log = new Chi2ExpsLog(file);
    await Promise.all([100, 200, 300].map((epoch) => log.append(epoch, entry(epoch))));
    const written = parseChi2ExpsLog(await readFile(file, 'utf8'), file);
    expect([...written.keys()]).toEqual([100, 200, 300]);
  });

  it('should reject an epoch that is not above the last one', async () => {
    const log = new Chi2ExpsLog(join(folder, 'chi2exps.log'));
    await log.append(200, entry(2));
    await expect(log.append(200, entry(2))).rejects.toThrow(InvalidArgumentError);
    await expect(log.append(100, entry(1))).rejects.toThrow(InvalidArgumentError);
    await expect(log.append(250.5, entry(1))).rejects.toThrow(InvalidArgumentError);
  });

  it('should resume from a checkpoint, dropping entries logged after it', async () => {
    const file = join(folder, 'chi2exps.log');
    const entries = new Map([100, 200, 300].map((epoch) => [epoch, entry(epoch)] as const));
    await writeFile(file, chi2ExpsLogText(entries));
    const log = await Chi2ExpsLog.resume(file, 200);
    expect([...log.entries.keys()]).toEqual([100, 200]);
    await log.append(300, entry(7));
    const written = parseChi2ExpsLog(await readFile(file, 'utf8'), file);
    expect(written.get(300)).toEqual(entry(7));
  });

  it('should resume from nothing when the file is absent, and fail on a corrupt file', async () => {
    const file = join(folder, 'chi2exps.log');
    expect((await Chi2ExpsLog.resume(file, 500)).entries.size).toBe(0);
    await writeFile(file, '{"100": {');
    await expect(Chi2ExpsLog.resume(file, 500)).rejects.toThrow(InputFileError);
  });
});
