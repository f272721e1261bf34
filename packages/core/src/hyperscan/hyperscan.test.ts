import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputFileError } from '../errors/input-file-error.js';
import { columnsAsParameters, selectTrials, trialColumns } from './trial-selection.js';
import { findTriesFile, parseTries, readTriesFile } from './tries-file.js';
import { trialDocument, triesText } from './tries.fixture.js';

describe('parseTries', () => {
  it("should read Python's bare NaN and Infinity and numbers written as numpy strings", () => {
    const text = `[
      {"state": 2, "tid": 0, "result": {"status": "fail", "loss": Infinity},
       "misc": {"space_vals": {"note": "NaN in a string stays text", "epochs": 10.0}}},
      {"state": "2", "tid": "1", "result": {"status": "ok", "loss": "0.25"},
       "misc": {"space_vals": {"x": -Infinity}}},
      {"state": 2, "tid": 2, "result": {"status": "ok", "loss": NaN}, "misc": {"space_vals": {}}},
      {"state": 1, "tid": 3, "result": {"status": "new"}, "misc": {}}
    ]`;
    const { trials } = parseTries(text, 'tries.json');
    expect(trials.map((trial) => trial.tid)).toEqual([0, 1, 2, 3]);
    expect(trials.map((trial) => trial.state)).toEqual([2, 2, 2, 1]);
    expect(trials[0].loss).toBe(Number.POSITIVE_INFINITY);
    expect(trials[0].status).toBe('fail');
    expect(trials[0].parameters).toEqual({ note: 'NaN in a string stays text', epochs: 10 });
    expect(trials[1].loss).toBe(0.25);
    expect(trials[1].parameters.x).toBe(Number.NEGATIVE_INFINITY);
    expect(trials[2].loss).toBeNaN();
    expect(trials[3].loss).toBeNaN();
  });

  it('should read the trials the fixture writes as n3fit does, with their times', () => {
    const { trials } = parseTries(triesText([{ tid: 7, loss: 1.5 }]), 'tries.json');
    expect(trials[0]).toMatchObject({
      tid: 7,
      state: 2,
      status: 'ok',
      loss: 1.5,
      bookTime: '2026-11-28 10:00:00.000000',
    });
    expect(trials[0].parameters.nodes_per_layer).toEqual([25, 20, 8]);
  });

  it('should name the file and the trial of what it cannot read', () => {
    const problem = (text: string) => {
      try {
        parseTries(text, '/scan/tries.json');
      } catch (error) {
        if (InputFileError.isInstance(error)) return error.message;
        throw error;
      }
      throw new Error('expected a refusal');
    };
    expect(problem('{"state": 2}')).toBe(
      '/scan/tries.json: expected a list of trials (hyperopt documents)',
    );
    expect(problem('[{"state": 2, "tid": 4')).toMatch(/^\/scan\/tries\.json: not JSON/);
    expect(problem('[{"state": 2, "tid": 4, "misc": {}}]')).toBe(
      '/scan/tries.json: [0].misc.space_vals: trial 4 is finished but its sampled settings are missing (n3fit writes them from 4.0 on)',
    );
    expect(problem('[{"state": 2, "tid": "x"}]')).toContain('[0].tid: expected the trial id');
  });
});

describe('findTriesFile', () => {
  it("should find partonfit's and n3fit's layouts and the file itself", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-tries-'));
    expect(await findTriesFile(folder)).toBeUndefined();
    const upstream = join(folder, 'nnfit', 'replica_1');
    await mkdir(upstream, { recursive: true });
    await writeFile(join(upstream, 'tries.json'), '[]');
    expect(await findTriesFile(folder)).toBe(join(upstream, 'tries.json'));
    await mkdir(join(folder, 'hyperopt'));
    await writeFile(join(folder, 'hyperopt', 'tries.json'), '[]');
    expect(await findTriesFile(folder)).toBe(join(folder, 'hyperopt', 'tries.json'));
    expect(await findTriesFile(join(upstream, 'tries.json'))).toBe(join(upstream, 'tries.json'));
    expect((await readTriesFile(join(upstream, 'tries.json'))).trials).toEqual([]);
    await expect(readTriesFile(join(folder, 'missing.json'))).rejects.toThrow(
      /missing\.json: cannot read the scan's trials/,
    );
  });
});

describe('selectTrials', () => {
  const tries = parseTries(
    triesText([
      { tid: 0, loss: 0.1 },
      { tid: 1, loss: 0.2 },
      { tid: 2, loss: 9, state: 1 },
      { tid: 3, loss: 5 },
      { tid: 4, loss: Number.NaN },
      { tid: 5, loss: 2, status: 'fail' },
      { tid: 6, loss: 1 },
      { tid: 7, loss: 1 },
      { tid: 8, loss: 3 },
    ]),
    'tries.json',
  );

  it("should skip the first finished trials and keep the best by loss, as n3fit's pandas sort", () => {
    const selection = selectTrials(tries, { thermalization: 2, number_of_trials: 4 });
    if (!('trials' in selection)) throw new Error(selection.problem);
    // tid 2 is not finished; tid 0 and 1 are the thermalisation; ties (6, 7) keep the file's order
    expect(selection.trials.map(({ trial }) => trial.tid)).toEqual([6, 7, 5, 8]);
    expect(selection.trials.map(({ rank }) => rank)).toEqual([0, 1, 2, 3]);
    const all = selectTrials(tries, { thermalization: 2, number_of_trials: 6 });
    if (!('trials' in all)) throw new Error(all.problem);
    expect(all.trials.map(({ trial }) => trial.tid)).toEqual([6, 7, 5, 8, 3, 4]);
  });

  it('should say how many finished trials there are when too few', () => {
    expect(selectTrials(tries, { thermalization: 3, number_of_trials: 6 })).toEqual({
      problem:
        'tries.json has 8 finished trial(s) of 9; thermalization 3 + number_of_trials 6 needs 9',
    });
  });
});

describe('trial columns', () => {
  it("should read a trial's settings as n3fit's columns and write them as parameters", () => {
    const document = trialDocument({
      tid: 3,
      loss: 1,
      nodes: [30.0, 40.0, 8],
      activation: 'sigmoid',
      optimizer: 'Adam',
      learningRate: 7.5e-3,
      clipnorm: 2.7e-5,
      epochs: 17000.0,
      patience: 0.42,
      initial: 15.8,
    });
    const [trial] = parseTries(JSON.stringify([document]), 'tries.json').trials;
    const columns = trialColumns(trial);
    expect(columns).toEqual({
      optimizer: 'Adam',
      learning_rate: 7.5e-3,
      clipnorm: 2.7e-5,
      initial: 15.8,
      epochs: 17000,
      stopping_patience: 0.42,
      nodes_per_layer: [30, 40, 8],
      activation_per_layer: 'sigmoid',
      initializer: 'glorot_normal',
      layer_type: 'dense',
      dropout: 0,
    });
    expect(columnsAsParameters({ ...columns, epochs: 499.9 })).toEqual({
      optimizer: { optimizer_name: 'Adam', learning_rate: 7.5e-3, clipnorm: 2.7e-5 },
      positivity: { initial: 15.8 },
      epochs: 499,
      stopping_patience: 0.42,
      nodes_per_layer: [30, 40, 8],
      activation_per_layer: ['sigmoid', 'sigmoid', 'linear'],
      initializer: 'glorot_normal',
      layer_type: 'dense',
      dropout: 0,
    });
    expect(columnsAsParameters({ activation_per_layer: ['tanh', 'linear'] })).toEqual({
      activation_per_layer: ['tanh', 'linear'],
    });
  });
});
