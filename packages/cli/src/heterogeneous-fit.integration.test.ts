import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { describeOnBackends, writeClosureRuncard } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

/**
 * Six replicas, each with its own methodology: the base network; narrower (in the base's
 * padded group); one layer less; sigmoid activations; Adam instead of Nadam; another learning
 * rate with a shorter patience and fewer epochs.
 */
const ENTRIES = [
  {},
  { nodes_per_layer: [15, 12, 8] },
  { nodes_per_layer: [20, 8], activation_per_layer: ['tanh', 'linear'] },
  { activation_per_layer: ['sigmoid', 'sigmoid', 'linear'] },
  { optimizer: { optimizer_name: 'Adam', learning_rate: 5.0e-3 } },
  { optimizer: { learning_rate: 3.0e-3 }, stopping_patience: 0.03, epochs: 250 },
];

interface ExportGrid {
  readonly pdfgrid: number[][];
}

interface ReplicaRecords {
  readonly grid: ExportGrid;
  readonly json: Record<string, unknown>;
  readonly log: string;
}

async function replicaRecords(output: string, fit: string, replica: number) {
  const folder = join(output, fit, 'nnfit', `replica_${replica}`);
  const read = (name: string) => readFile(join(folder, name), 'utf8');
  return {
    grid: parse(await read(`${fit}.exportgrid`)) as ExportGrid,
    json: JSON.parse(await read(`${fit}.json`)) as Record<string, unknown>,
    log: await read('chi2exps.log'),
  } satisfies ReplicaRecords;
}

/** The largest relative difference of two exportgrids (values below 1e-8 compared absolutely). */
function worstRelative(a: ExportGrid, b: ExportGrid): number {
  let worst = 0;
  a.pdfgrid.forEach((row, i) => {
    row.forEach((value, f) => {
      const other = b.pdfgrid[i][f];
      worst = Math.max(worst, Math.abs(value - other) / Math.max(Math.abs(other), 1e-8));
    });
  });
  return worst;
}

describeOnBackends('partonfit fit with parameters per replica', (backend) => {
  it('should give each replica the fit its own homogeneous runcard gives it alone', async () => {
    const { folder, runcard } = await writeClosureRuncard('mixed', {
      epochs: 300,
      chargedLeptonsOnly: true,
      passEveryReplica: true,
    });
    const base = parse(await readFile(runcard, 'utf8')) as Record<string, unknown>;
    await writeFile(runcard, stringify({ ...base, parameters_per_replica: ENTRIES }));
    const together = join(folder, 'together');
    const fit = await run(
      'fit',
      runcard,
      '--replicas',
      '1-6',
      '--backend',
      backend,
      '--output',
      together,
    );
    expect(fit.error).not.toContain('partonfit fit:');
    expect(fit.code).toBe(0);
    const check = await run('check', runcard);
    expect(check.out).toContain('replica r takes entry (r − 1) mod 6 + 1');
    expect(check.out).toContain('network 2 → 20 → 8 (tanh, linear), glorot_normal');
    const stopped: number[] = [];
    for (const [r, entry] of ENTRIES.entries()) {
      const replica = r + 1;
      const mine = await replicaRecords(together, 'mixed', replica);
      // the same replica (same seeds) alone, from a runcard of its parameters for every replica
      const { folder: own, runcard: alone } = await writeClosureRuncard('alone', {
        epochs: 300,
        chargedLeptonsOnly: true,
        passEveryReplica: true,
      });
      const parameters = mine.json.hyperparameters as Record<string, unknown>;
      expect(parameters.entry).toBe(r);
      const text = parse(await readFile(alone, 'utf8')) as { parameters: Record<string, unknown> };
      const { optimizer, ...rest } = entry as { optimizer?: Record<string, unknown> };
      const merged = {
        ...text.parameters,
        ...rest,
        optimizer: {
          ...(text.parameters.optimizer as Record<string, unknown>),
          ...(optimizer?.optimizer_name === undefined ? {} : { learning_rate: undefined }),
          ...optimizer,
        },
      };
      await writeFile(alone, stringify({ ...text, parameters: merged }));
      const single = await run(
        'fit',
        alone,
        '--replicas',
        `${replica}`,
        '--backend',
        backend,
        '--output',
        join(own, 'out'),
      );
      expect(single.code).toBe(0);
      const theirs = await replicaRecords(join(own, 'out'), 'alone', replica);
      // Bit for bit on this machine; a product over a padded layer adds (zero) terms that a
      // BLAS may sum in another order elsewhere: float32 rounding, not a different fit.
      expect(worstRelative(mine.grid, theirs.grid)).toBeLessThan(1e-5);
      for (const key of ['stop_epoch', 'best_epoch', 'pos_state']) {
        expect(mine.json[key]).toEqual(theirs.json[key]);
      }
      for (const key of ['erf_tr', 'erf_vl', 'chi2']) {
        expect(mine.json[key] as number).toBeCloseTo(theirs.json[key] as number, 5);
      }
      expect(mine.log.split('\n').map((line) => line.split(':')[0])).toEqual(
        theirs.log.split('\n').map((line) => line.split(':')[0]),
      );
      stopped.push(mine.json.stop_epoch as number);
    }
    // the replicas end on their own: the short patience early, the 250-epoch one by then
    expect(Math.min(...stopped)).toBeLessThan(250);
    expect(stopped[5]).toBeLessThanOrEqual(250);
  });
});

describe('partonfit fit with bad per-replica settings', () => {
  it.each([
    [
      'an unknown optimiser',
      'parameters_per_replica:\n  - {}\n  - { optimizer: { optimizer_name: AdamW } }\n',
      "parameters_per_replica[1].optimizer.optimizer_name: expected one of SGD, RMSprop, Adam, Adamax, Adagrad, Adadelta, Nadam, Amsgrad, got 'AdamW'",
    ],
    [
      'an unknown activation',
      'parameters_per_replica:\n  - { activation_per_layer: [tanh, gelu, linear] }\n',
      "parameters_per_replica[0].activation_per_layer[1]: expected one of linear, tanh, sigmoid, relu, elu, softplus, square, leaky_relu, modified_tanh, got 'gelu'",
    ],
    [
      'a width above the maximum',
      'parameters_per_replica:\n  - { nodes_per_layer: [4096, 20, 8] }\n',
      "parameters_per_replica[0].nodes_per_layer[0]: expected at most 1024 nodes (partonfit's widest layer), got 4096",
    ],
    [
      'a missing scan folder',
      'trial_specs: { hyperscan: no-such-scan, number_of_trials: 2 }\n',
      'trial_specs.hyperscan: no trials in',
    ],
  ])(
    'should refuse %s naming the key, file and line, and write nothing',
    async (_, extra, problem) => {
      const { folder, runcard } = await writeClosureRuncard('bad', { epochs: 30 });
      let text = `${await readFile(runcard, 'utf8')}\n${extra}`;
      if (extra.startsWith('trial_specs')) {
        // trial_specs sets the network, optimiser, epochs and patience: they leave parameters
        text = text.replace(/parameters:\n(.*\n)*?\n/, 'parameters:\n  threshold_chi2: 5.0\n\n');
      }
      await writeFile(runcard, text);
      const lines = text.split('\n');
      const output = join(folder, 'out');
      const result = await run('fit', runcard, '--replicas', '1-2', '--output', output);
      expect(result.code).toBe(1);
      const line = result.error.split('\n').find((entry) => entry.includes(problem)) ?? '';
      const where = line.split(`${runcard}:`)[1]?.split(':')[0];
      expect(line).toContain(`${runcard}:${where}: ${problem}`);
      const key = problem.split(/[.[:]/)[0] ?? '';
      expect(lines[Number(where) - 1]).toContain(key === 'parameters_per_replica' ? '- ' : key);
      expect(existsSync(output)).toBe(false);
    },
  );
});
