import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { childArguments, parseBenchOptions } from './options.js';

describe('parseBenchOptions', () => {
  it('should default to the full benchmark of every workload at R = 1, 10, 100', () => {
    const options = parseBenchOptions(['--date', '2025-01-02']);
    expect(options).toMatchObject({
      mode: 'full',
      backend: undefined,
      backends: undefined,
      workloads: ['nnpdf40', 'nnpdf40-sparse', 'dis'],
      replicas: [1, 10, 100],
      ratioReplicas: [10, 100],
      ratioWorkloads: ['nnpdf40', 'dis'],
      steps: 20,
      warmup: 3,
      logEvery: 100,
      budgetSeconds: 900,
      date: '2025-01-02',
      threads: undefined,
      help: false,
    });
    expect([...options.skip]).toEqual([]);
  });

  it('should read --threads as thread counts, ascending and unique, or 1 to every CPU', () => {
    expect(parseBenchOptions(['--threads', '4,1,2,2']).threads).toEqual([1, 2, 4]);
    expect(parseBenchOptions(['--threads=16']).threads).toEqual([16]);
    expect(parseBenchOptions(['--threads', 'all'], 6).threads).toEqual([1, 2, 3, 4, 5, 6]);
    expect(parseBenchOptions(['--threads', 'all'], 1).threads).toEqual([1]);
  });

  it('should shorten everything with --quick and leave out the cross-check', () => {
    const options = parseBenchOptions(['--quick']);
    expect(options).toMatchObject({
      mode: 'quick',
      replicas: [1, 10],
      ratioReplicas: [10],
      ratioWorkloads: ['dis'],
      steps: 5,
      warmup: 2,
      budgetSeconds: 20,
    });
    expect([...options.skip]).toEqual(['crosscheck']);
  });

  it('should read values given as --name value and --name=value, sorted and unique', () => {
    const options = parseBenchOptions([
      '--replicas=10,1,10',
      '--ratio-replicas',
      '',
      '--steps',
      '7',
      '--budget=0',
      '--workloads',
      'dis',
      '--skip',
      'setup,profile',
      '--backends',
      'cpu,wasm',
    ]);
    expect(options.replicas).toEqual([1, 10]);
    expect(options.ratioReplicas).toEqual([]);
    expect(options.steps).toBe(7);
    expect(options.budgetSeconds).toBe(Number.POSITIVE_INFINITY);
    expect(options.workloads).toEqual(['dis']);
    expect([...options.skip]).toEqual(['setup', 'profile']);
    expect(options.backends).toEqual(['cpu', 'wasm']);
  });

  it.each([
    [['--fast'], '--fast: unknown option; expected one of --quick, --help, --backends'],
    [['--steps'], '--steps: expected a value'],
    [['--steps', '0'], "--steps: expected integers ≥ 1 separated by commas, got '0'"],
    [['--steps', '2,3'], "--steps: expected one integer ≥ 1, got '2,3'"],
    [['--replicas', 'ten'], "--replicas: expected integers ≥ 1 separated by commas, got 'ten'"],
    [
      ['--workloads', 'lhc'],
      "--workloads: expected names among nnpdf40, nnpdf40-sparse, dis, got 'lhc'",
    ],
    [['--skip', 'all'], '--skip: expected names among setup, ratios, components'],
    [['--date', 'today'], "--date: expected YYYY-MM-DD, got 'today'"],
    [['--quick=yes'], '--quick: takes no value'],
    [
      ['--threads', '0,2'],
      "--threads: expected 'all' or integers ≥ 1 separated by commas, got '0,2'",
    ],
    [
      ['--threads', 'two'],
      "--threads: expected 'all' or integers ≥ 1 separated by commas, got 'two'",
    ],
    [['--threads', ''], "--threads: expected 'all' or integers ≥ 1 separated by commas, got ''"],
    [
      ['--backend', 'native', '--threads', '1,2'],
      '--threads: runs every thread count in its own process; use --backends instead of --backend',
    ],
  ])('should reject %j naming the option', (argv, message) => {
    expect(() => parseBenchOptions(argv)).toThrow(InvalidArgumentError);
    expect(() => parseBenchOptions(argv)).toThrow(message);
  });
});

describe('childArguments', () => {
  it('should give R = 100 and the naive variants only to the fastest backend in quick mode', () => {
    const options = parseBenchOptions(['--quick', '--date', '2025-01-02', '--out', '/tmp/r']);
    const fastest = parseBenchOptions(childArguments(options, 'wasm', true));
    const other = parseBenchOptions(childArguments(options, 'cpu', false));
    expect(fastest).toMatchObject({ backend: 'wasm', replicas: [1, 10, 100], ratioReplicas: [10] });
    expect(other).toMatchObject({ backend: 'cpu', replicas: [1, 10], ratioReplicas: [] });
    for (const child of [fastest, other]) {
      expect(child).toMatchObject({
        mode: 'quick',
        steps: 5,
        warmup: 2,
        date: '2025-01-02',
        out: '/tmp/r',
      });
      expect([...child.skip]).toEqual(['crosscheck']);
    }
  });

  it('should pass full-mode settings through unchanged, with an unlimited budget as 0', () => {
    const options = parseBenchOptions(['--replicas', '1,10', '--budget', '0', '--skip', 'setup']);
    const child = parseBenchOptions(childArguments(options, 'cpu', false));
    expect(child).toMatchObject({
      mode: 'full',
      backend: 'cpu',
      replicas: [1, 10],
      ratioReplicas: [10, 100],
      budgetSeconds: Number.POSITIVE_INFINITY,
    });
    expect([...child.skip]).toEqual(['setup']);
  });

  it('should leave --threads to the parent, which sets each child’s pool', () => {
    const options = parseBenchOptions(['--backends', 'native', '--threads', '1,2']);
    expect(parseBenchOptions(childArguments(options, 'native', true)).threads).toBeUndefined();
  });
});
