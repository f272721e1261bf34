import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputFileError, InvalidArgumentError, parseRuncard, runcardDigest } from '@partonfit/core';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { readExportGrid } from '../folder/exportgrid-reader.js';
import { runPostfit } from './postfit.js';
import { SYNTHETIC_X, syntheticFit, syntheticPdfGrid } from '../testing/synthetic-fit.js';

/** Replicas 1–6: 2 fails positivity, 4 integrability, 5 lacks its exportgrid; 1, 3, 6 pass. */
function mixedReplicas() {
  return [
    { replica: 1, chi2: 1.1 },
    { replica: 2, positive: false },
    { replica: 3, chi2: 1.3 },
    { replica: 4, integrability: [0.01, 0.7, 0, 0.1, 0.01] },
    { replica: 5, without: ['exportgrid'] as const },
    { replica: 6, chi2: 1.2 },
  ];
}

describe('runPostfit', () => {
  it('should keep the passing replicas renumbered, with replica 0 their average', async () => {
    const fit = await syntheticFit(mixedReplicas());
    const result = await runPostfit(fit);
    expect(result.selected).toEqual([
      { member: 1, replica: 1 },
      { member: 2, replica: 3 },
      { member: 3, replica: 6 },
    ]);
    expect(result.discarded).toEqual([
      { replica: 2, reasons: ['Positivity'] },
      { replica: 4, reasons: ['IntegNumber_1'] },
    ]);
    expect(result.invalid).toEqual([{ replica: 5, problem: 'missing synthetic.exportgrid' }]);
    expect(result.passingAverageChi2).toBeCloseTo(1.2, 12);
    const postfit = join(fit, 'postfit');
    expect((await readdir(postfit)).sort()).toEqual([
      'postfit.json',
      'postfit.log',
      'replica_0',
      'replica_1',
      'replica_2',
      'replica_3',
      'veto_count.json',
    ]);
    for (const { member, replica } of result.selected) {
      for (const name of ['synthetic.exportgrid', 'synthetic.json', 'weights.h5', 'chi2exps.log']) {
        expect(await readFile(join(postfit, `replica_${member}`, name), 'utf8')).toBe(
          await readFile(join(fit, 'nnfit', `replica_${replica}`, name), 'utf8'),
        );
      }
    }
    const average = await readExportGrid(join(postfit, 'replica_0', 'synthetic.exportgrid'));
    expect(average.replica).toBe(0);
    expect(average.q20).toBe(2.7225);
    expect(average.xGrid).toEqual(SYNTHETIC_X);
    const [one, three, six] = [1, 3, 6].map(syntheticPdfGrid);
    average.pdfGrid.forEach((value, i) => {
      expect(value).toBeCloseTo((one[i] + three[i] + six[i]) / 3, 12);
    });
    const summary = JSON.parse(await readFile(join(postfit, 'postfit.json'), 'utf8')) as {
      valid: number[];
      vetoes: Record<string, boolean[]>;
      thresholds: Record<string, number>;
    };
    expect(summary.valid).toEqual([1, 2, 3, 4, 6]);
    expect(summary.vetoes.Total).toEqual([true, false, true, false, true]);
    expect(summary.thresholds).toEqual({ chi2: 4, arclength: 4, integrability: 0.5 });
    const vetoCount = JSON.parse(
      await readFile(join(postfit, 'veto_count.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(Object.keys(vetoCount).slice(0, 4)).toEqual([
      'chi2_threshold',
      'arclength_threshold',
      'integrability_threshold',
      'Positivity',
    ]);
    const log = await readFile(join(postfit, 'postfit.log'), 'utf8');
    expect(log).toContain('6 total replicas found, 5 valid\n');
    expect(log).toContain('4 replicas pass Positivity\n');
    expect(log).toContain('replica_2: nnfit/replica_3\n');
    expect(log).toContain('discarded replica 4: IntegNumber_1\n');
  });

  it('should keep the first nrep passing replicas, or all of at least nrep', async () => {
    const fit = await syntheticFit(mixedReplicas());
    const first = await runPostfit(fit, { nrep: 2 });
    expect(first.selected.map(({ replica }) => replica)).toEqual([1, 3]);
    expect(first.discarded).toContainEqual({
      replica: 6,
      reasons: ['beyond the requested number of replicas (--nrep)'],
    });
    // a second postfit replaces the first one's folder
    expect(await readdir(join(fit, 'postfit'))).not.toContain('replica_3');
    const all = await runPostfit(fit, { nrep: 2, atLeastNrep: true });
    expect(all.selected).toHaveLength(3);
    expect(await readdir(join(fit, 'postfit'))).toContain('replica_3');
    await expect(runPostfit(fit, { nrep: 4 })).rejects.toThrow(
      'nrep: 3 of 5 valid replicas pass the vetoes, 4 were asked for',
    );
    await expect(runPostfit(fit, { nrep: 0 })).rejects.toThrow(InvalidArgumentError);
    // a failed postfit leaves the previous one in place and no work folder behind
    expect((await readdir(fit)).sort()).toEqual(['nnfit', 'postfit']);
  });

  it('should name the file and key of a corrupt replica, and refuse a fit without replicas', async () => {
    const fit = await syntheticFit(mixedReplicas());
    const json = join(fit, 'nnfit', 'replica_3', 'synthetic.json');
    await writeFile(
      json,
      JSON.stringify({ chi2: 1, pos_state: 'MAYBE', arc_lengths: [], integrability: [] }),
    );
    await expect(runPostfit(fit)).rejects.toThrow(InputFileError);
    await expect(runPostfit(fit)).rejects.toThrow(
      `${json}: pos_state: expected POS_PASS or POS_VETO, got "MAYBE"`,
    );
    await writeFile(json, '{"chi2": 1, "pos_state": "POS_PASS", "arc_lengths": ["long"]}');
    await expect(runPostfit(fit)).rejects.toThrow(
      `${json}: arc_lengths: expected a list of numbers`,
    );
    const grid = join(fit, 'nnfit', 'replica_6', 'synthetic.exportgrid');
    await writeFile(json, await readFile(join(fit, 'nnfit', 'replica_1', 'synthetic.json')));
    await writeFile(grid, (await readFile(grid, 'utf8')).replace('q20: 2.7225', 'q20: 3.0'));
    await expect(runPostfit(fit)).rejects.toThrow(`${grid}: q20: 3, but`);
    // the half-built folder is removed
    expect(await readdir(fit)).toEqual(['nnfit']);
    const empty = await syntheticFit([{ replica: 1, without: ['json'] }]);
    await expect(runPostfit(empty)).rejects.toThrow(
      `${join(empty, 'nnfit')}: no valid replica (each replica_<r> needs synthetic.exportgrid and synthetic.json)`,
    );
    await expect(runPostfit(join(empty, 'absent'))).rejects.toThrow(
      'nnfit: cannot read the folder',
    );
    const vetoed = await syntheticFit([{ replica: 1, positive: false }]);
    await expect(runPostfit(vetoed)).rejects.toThrow('fit: 0 of 1 valid replicas pass the vetoes');
  });

  it('should name the replica JSON whose arc lengths do not match the others', async () => {
    const fit = await syntheticFit([{ replica: 1 }, { replica: 2, arcLengths: [1.3, 1.2, 3.6] }]);
    const json = (replica: number) => join(fit, 'nnfit', `replica_${replica}`, 'synthetic.json');
    await expect(runPostfit(fit)).rejects.toThrow(
      `${json(2)}: arc_lengths: expected 5 numbers (Sigma, g, V, V3, V8), got 3`,
    );
  });

  it('should name diverged replicas and never keep them', async () => {
    const fit = await syntheticFit([
      ...mixedReplicas(),
      { replica: 7, divergedEpoch: 37, chi2: Number.NaN, without: ['exportgrid'] },
      { replica: 8, divergedEpoch: 120, chi2: 1.15 },
    ]);
    const lines: string[] = [];
    const result = await runPostfit(fit, { report: (line) => lines.push(line) });
    expect(result.diverged).toEqual([
      { replica: 7, epoch: 37 },
      { replica: 8, epoch: 120 },
    ]);
    expect(result.selected.map(({ replica }) => replica)).toEqual([1, 3, 6]);
    expect(result.invalid).toEqual([{ replica: 5, problem: 'missing synthetic.exportgrid' }]);
    expect(lines[0]).toBe('8 total replicas found, 5 valid, 2 diverged');
    expect(lines).toContain('diverged replica 7: its loss stopped being finite at epoch 37');
    const summary = JSON.parse(await readFile(join(fit, 'postfit', 'postfit.json'), 'utf8')) as {
      diverged: unknown;
      valid: number[];
    };
    expect(summary.diverged).toEqual(result.diverged);
    expect(summary.valid).toEqual([1, 2, 3, 4, 6]);
    const allDiverged = await syntheticFit([
      { replica: 1, divergedEpoch: 3 },
      { replica: 2, divergedEpoch: 5 },
    ]);
    await expect(runPostfit(allDiverged)).rejects.toThrow(
      'no valid replica: every replica diverged (1, 2); lower the learning rate or set a clipnorm',
    );
  });

  it('should refuse replicas fitted with different runcards', async () => {
    const [one, other] = ['a', 'b'].map((digit) => digit.repeat(64));
    const fit = await syntheticFit([
      { replica: 1, runcardSha256: one },
      { replica: 2, runcardSha256: other },
      { replica: 3, runcardSha256: one },
      { replica: 4 },
    ]);
    await expect(runPostfit(fit)).rejects.toThrow(
      `${join(fit, 'nnfit')}: the replicas were fitted with different runcards: replica(s) 1, 3 with runcard aaaaaaaaaaaa…; replica(s) 2 with runcard bbbbbbbbbbbb…`,
    );
    expect(await readdir(fit)).toEqual(['nnfit']);
    const same = await syntheticFit([
      { replica: 1, runcardSha256: one },
      { replica: 2, runcardSha256: one },
      { replica: 3 },
    ]);
    expect((await runPostfit(same)).selected).toHaveLength(3);
  });

  it('should check the replicas against the fit’s runcard.yml', async () => {
    const runcardText = await readFile(CLOSURE_RUNCARD, 'utf8');
    const digest = runcardDigest(parseRuncard(runcardText).runcard);
    const fit = await syntheticFit([
      { replica: 1, runcardSha256: digest },
      { replica: 2, runcardSha256: digest },
    ]);
    await writeFile(join(fit, 'runcard.yml'), runcardText);
    expect((await runPostfit(fit)).selected).toHaveLength(2);
    await writeFile(join(fit, 'runcard.yml'), runcardText.replace('epochs: 8000', 'epochs: 900'));
    await expect(runPostfit(fit)).rejects.toThrow(
      `replica(s) 1, 2 with runcard ${digest.slice(0, 12)}…; runcard.yml is`,
    );
  });

  it('should name the file of a replica with the wrong number of arc lengths', async () => {
    const fit = await syntheticFit([{ replica: 1 }, { replica: 2, arcLengths: [1, 2, 3] }]);
    await expect(runPostfit(fit)).rejects.toThrow(
      `${join(fit, 'nnfit', 'replica_2', 'synthetic.json')}: arc_lengths: expected 5 numbers (Sigma, g, V, V3, V8), got 3`,
    );
  });

  it('should report the folder written only once it is in place', async () => {
    const fit = await syntheticFit(mixedReplicas());
    const grid = join(fit, 'nnfit', 'replica_6', 'synthetic.exportgrid');
    await writeFile(grid, (await readFile(grid, 'utf8')).replace('q20: 2.7225', 'q20: 3.0'));
    const lines: string[] = [];
    await expect(runPostfit(fit, { report: (line) => lines.push(line) })).rejects.toThrow(
      InputFileError,
    );
    expect(lines.join('\n')).not.toContain('written');
    expect(lines).toContain('replica_3: nnfit/replica_6');
  });
});
