import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import {
  measuredConfigurationFixture as measured,
  nativeResultFixture,
} from '../report/bench-result.fixture.js';
import { threadScalingTable } from '../report/markdown.js';
import { validateBenchResult } from '../report/result-file.js';
import type { ThreadScalingResult } from '../report/result-schema.js';
import { threadScalingRows, withThreadScaling, type ThreadRun } from './thread-scaling.js';

const WORKLOADS = ['nnpdf40', 'dis'];

// The hand-measured native steps of docs/performance.md (2026-11-29), ms; R = 10 of nnpdf40 is
// over the budget at one thread, and a 4-thread run measured R = 1 alone.
const RUNS: ThreadRun[] = [
  {
    threads: 4,
    file: 'four.json',
    result: nativeResultFixture(4, WORKLOADS, [measured('nnpdf40', 1, 30)]),
  },
  {
    threads: 1,
    file: 'one.json',
    result: nativeResultFixture(1, WORKLOADS, [
      measured('nnpdf40', 1, 74, { hadronic: 40, network: 5 }),
      { status: 'skipped', workload: 'nnpdf40', replicas: 10, reason: 'budget' },
      measured('nnpdf40', 100, 703),
      measured('dis', 1, 6.6),
    ]),
  },
  {
    threads: 2,
    file: 'two.json',
    result: nativeResultFixture(2, WORKLOADS, [
      measured('dis', 1, 6),
      measured('nnpdf40', 1, 49.7, { hadronic: 21, network: 4 }),
      measured('nnpdf40', 10, 93.3),
      measured('nnpdf40', 100, 373.6),
    ]),
  },
];

function summary(rows: readonly ThreadScalingResult[]) {
  return rows.map((row) => [row.workload, row.replicas, row.threads, row.stepMs.median]);
}

describe('threadScalingRows', () => {
  const rows = threadScalingRows(RUNS);

  it('should give one row per measured configuration and thread count, by workload, R, threads', () => {
    expect(summary(rows)).toEqual([
      ['nnpdf40', 1, 1, 74],
      ['nnpdf40', 1, 2, 49.7],
      ['nnpdf40', 1, 4, 30],
      ['nnpdf40', 10, 2, 93.3],
      ['nnpdf40', 100, 1, 703],
      ['nnpdf40', 100, 2, 373.6],
      ['dis', 1, 1, 6.6],
      ['dis', 1, 2, 6],
    ]);
  });

  it('should divide the 1-thread median by each median, and that by the threads', () => {
    const speedups = rows.map((row) => row.speedup);
    const efficiencies = rows.map((row) => row.efficiency);
    // 74 / 49.7, 74 / 30, 703 / 373.6, 6.6 / 6
    const expected = [1, 1.48893, 2.46667, null, 1, 1.88169, 1, 1.1];
    const expectedEfficiency = [1, 0.744467, 0.616667, null, 1, 0.940846, 1, 0.55];
    expect(speedups.map((value) => (value === null ? null : Number(value.toFixed(5))))).toEqual(
      expected,
    );
    expect(efficiencies.map((value) => (value === null ? null : Number(value.toFixed(6))))).toEqual(
      expectedEfficiency,
    );
  });

  it('should keep each component’s median at each thread count', () => {
    expect(rows.slice(0, 2).map((row) => row.components)).toEqual([
      [
        { name: 'hadronic', medianMs: 40 },
        { name: 'network', medianMs: 5 },
      ],
      [
        { name: 'hadronic', medianMs: 21 },
        { name: 'network', medianMs: 4 },
      ],
    ]);
  });

  it('should give no speed-up to any row without a 1-thread run', () => {
    const rowsWithoutOne = threadScalingRows(RUNS.filter((run) => run.threads !== 1));
    expect(rowsWithoutOne.map((row) => [row.speedup, row.efficiency])).toEqual(
      Array.from({ length: 5 }, () => [null, null]),
    );
  });
});

describe('withThreadScaling', () => {
  it('should return the largest thread count’s result with the rows of every run', () => {
    const merged = withThreadScaling(RUNS);
    expect(merged.blasPeak?.threads).toBe(4);
    expect(merged.configurations).toEqual(RUNS[0].result.configurations);
    expect(merged.threadScaling).toEqual(threadScalingRows(RUNS));
    expect(validateBenchResult(merged, 'merged.json')).toEqual(merged);
  });

  it('should reject a run whose pool had another size, naming its file', () => {
    const wrong = [RUNS[1], { ...RUNS[2], result: nativeResultFixture(1, WORKLOADS, []) }];
    expect(() => withThreadScaling(wrong)).toThrow(InputFileError);
    expect(() => withThreadScaling(wrong)).toThrow(
      "two.json: blasPeak.threads: the addon's pool ran 1 threads, but the run was started with PARTONFIT_NATIVE_THREADS=2",
    );
  });

  it('should reject no runs', () => {
    expect(() => withThreadScaling([])).toThrow(InvalidArgumentError);
  });
});

describe('the threadScaling field of the result schema', () => {
  const merged = withThreadScaling(RUNS);

  it('should be required, and hold positive speed-ups and efficiencies or null', () => {
    const without: Partial<typeof merged> = structuredClone(merged);
    delete without.threadScaling;
    expect(() => validateBenchResult(without, 'r.json')).toThrow(/^r\.json: threadScaling: /);
    const negative = structuredClone(merged);
    negative.threadScaling[1].speedup = -1;
    expect(() => validateBenchResult(negative, 'r.json')).toThrow(
      /^r\.json: threadScaling\.1\.speedup: /,
    );
  });

  it('should come with schemaVersion 5', () => {
    expect(merged.schemaVersion).toBe(5);
    expect(() => validateBenchResult({ ...merged, schemaVersion: 4 }, 'r.json')).toThrow(
      /^r\.json: schemaVersion: /,
    );
  });
});

describe('threadScalingTable', () => {
  it('should give each row its median, speed-up and efficiency', () => {
    const table = threadScalingTable([withThreadScaling(RUNS)]);
    expect(table.split('\n')).toEqual([
      '| backend | workload | R | threads | ms/step median (p10–p90) | speed-up over 1 thread | efficiency |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      '| native | nnpdf40 | 1 | 1 | 74.0 (73.2–74.8) | 1.00× | 100 % |',
      '| native | nnpdf40 | 1 | 2 | 49.7 (48.9–50.5) | 1.49× | 74 % |',
      '| native | nnpdf40 | 1 | 4 | 30.0 (29.2–30.8) | 2.47× | 62 % |',
      '| native | nnpdf40 | 10 | 2 | 93.3 (92.5–94.1) | — | — |',
      '| native | nnpdf40 | 100 | 1 | 703 (702–704) | 1.00× | 100 % |',
      '| native | nnpdf40 | 100 | 2 | 374 (373–374) | 1.88× | 94 % |',
      '| native | dis | 1 | 1 | 6.60 (5.80–7.40) | 1.00× | 100 % |',
      '| native | dis | 1 | 2 | 6.00 (5.20–6.80) | 1.10× | 55 % |',
    ]);
  });

  it('should say when nothing was measured', () => {
    expect(threadScalingTable([nativeResultFixture(2, WORKLOADS, [])])).toBe('_None measured._');
  });
});
