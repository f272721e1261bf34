import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBenchOptions } from '../cli/options.js';
import { COMPONENT_NAMES } from '../components/component-names.js';
import { productFlops, SGEMM_SIZES } from '../measure/sgemm-throughput.js';
import { formatNumber, resultsMarkdown } from '../report/markdown.js';
import {
  readBenchResult,
  readResultsOfDate,
  resultFile,
  validateBenchResult,
  writeBenchResult,
} from '../report/result-file.js';
import { RATIO_NAMES, type BenchResult } from '../report/result-schema.js';
import { TINY_WORKLOAD } from '../workloads/workloads.fixture.js';
import { runBackend } from './run-backend.js';

describe('runBackend on the tiny workload', () => {
  let folder = '';
  let result: BenchResult;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'partonfit-bench-test-'));
    const options = parseBenchOptions([
      '--backend=cpu',
      '--workloads=nnpdf40',
      '--replicas=1,2',
      '--ratio-replicas=2',
      '--steps=2',
      '--warmup=1',
      '--skip=setup',
      `--out=${folder}`,
      '--date=2025-01-02',
    ]);
    result = await runBackend(
      { ...options, workloads: ['tiny'], ratioWorkloads: ['tiny'] },
      () => undefined,
      {
        tiny: TINY_WORKLOAD,
      },
    );
  }, 120_000);

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('should measure every replica count with the step’s statistics, syncs and memory', () => {
    expect(result.backend.name).toBe('cpu');
    // one process, one pool: the thread counts are the parent's (--threads)
    expect(result.threadScaling).toEqual([]);
    expect(result.settings).toMatchObject({ mode: 'full', steps: 2, warmup: 1, replicas: [1, 2] });
    expect(result.workloads.map((workload) => [workload.name, workload.ndata])).toEqual([
      ['tiny', 18],
    ]);
    const [one, two] = result.configurations;
    if (one.status !== 'measured' || two.status !== 'measured') throw new Error('skipped');
    expect(one.stepMs.count).toBe(2);
    expect(one.speedup).toBe(1);
    expect(two.speedup).toBeCloseTo(two.stepMs.median / (2 * one.stepMs.median), 12);
    expect(two.usPerReplicaStep).toBeCloseTo((1000 * two.stepMs.median) / 2, 9);
    // four stopping arrays and the stacked χ² at each read-back, none inside a step
    expect(two.syncs).toEqual({ logEvery: 100, perStep: 0, perReadBack: 5, per100Steps: 5 });
    expect(two.tensors.flat).toBe(true);
    expect(two.tensors.leakedAfterDispose).toBe(0);
    expect(two.components.map((component) => component.name)).toEqual(COMPONENT_NAMES);
    expect(two.crossCheck?.epochs).toBe(4);
    expect(two.profile?.kernels.length).toBeGreaterThan(0);
    // every dispatch counted, at least those of the listed (heaviest) kernels
    const listed = (two.profile?.kernels ?? []).reduce((sum, kernel) => sum + kernel.calls, 0);
    expect(two.profile?.kernelCalls).toBeGreaterThanOrEqual(listed);
  });

  it('should measure the five naive variants at the ratio replica count only', () => {
    expect(result.ratios.map((ratio) => [ratio.name, ratio.replicas, ratio.status])).toEqual(
      RATIO_NAMES.map((name) => [name, 2, 'measured']),
    );
    const readBack = result.ratios.find((ratio) => ratio.name === 'readBackEveryStep');
    if (readBack?.status !== 'measured') throw new Error('skipped');
    expect(readBack.naiveSyncsPer100Steps).toBe(500);
    expect(readBack.ratio).toBeCloseTo(readBack.naiveMs.median / readBack.seedMs.median, 12);
  });

  it('should write a result that reads back equal and validates against the schema', async () => {
    const file = resultFile(folder, '2025-01-02', result.backend.name);
    await writeBenchResult(file, result);
    expect(await readBenchResult(file)).toEqual(result);
    expect(await readResultsOfDate(folder, '2025-01-02')).toEqual([result]);
  });

  it('should leave out, and report, a result of the same date from another schema version', async () => {
    await writeBenchResult(resultFile(folder, '2025-01-03', 'cpu'), result);
    const older = join(folder, '2025-01-03-wasm.json');
    await writeFile(older, JSON.stringify({ ...result, schemaVersion: 1 }));
    const leftOut: [string, number][] = [];
    const results = await readResultsOfDate(folder, '2025-01-03', (file, version) =>
      leftOut.push([file, version]),
    );
    expect(results).toEqual([result]);
    expect(leftOut).toEqual([[older, 1]]);
  });

  it('should reject a result with a missing field, naming the file and the key', async () => {
    const broken = structuredClone(result) as unknown as { configurations: { stepMs: object }[] };
    broken.configurations[0].stepMs = {};
    expect(() => validateBenchResult(broken, 'r.json')).toThrow(InputFileError);
    expect(() => validateBenchResult(broken, 'r.json')).toThrow(
      /^r\.json: configurations\.0\.stepMs\.count: not a partonfit benchmark result/,
    );
    const file = join(folder, 'bad.json');
    await writeFile(file, '{"schemaVersion": 1');
    await expect(readBenchResult(file)).rejects.toThrow(`${file}: not JSON`);
  });

  it('should tabulate every configuration, component and ratio in the markdown', () => {
    const markdown = resultsMarkdown([result]);
    expect(markdown).toMatch(/^# partonfit benchmark, \d{4}-\d{2}-\d{2} \(full\)/);
    expect(markdown).toContain('| cpu | tiny | 1 | ');
    expect(markdown).toContain('| cpu | tiny | 2 | readBackEveryStep | ');
    // the step, the components, each ratio, the cross-check and the heterogeneous row
    expect(markdown.match(/^\| cpu \| tiny \| 2 \|/gm)).toHaveLength(
      1 + 1 + RATIO_NAMES.length + 1 + 1,
    );
    const two = result.configurations[1];
    if (two.status !== 'measured') throw new Error('skipped');
    expect(markdown).toContain(
      `- cpu, tiny, R = 2 (${formatNumber(two.profile?.kernelCalls ?? 0)} kernels per step): `,
    );
  });

  it('should time the step of replicas with their own hyperparameters against the homogeneous one', () => {
    expect(result.heterogeneous).toHaveLength(1);
    const [entry] = result.heterogeneous;
    if (entry.status !== 'measured') throw new Error('skipped');
    // replicas 1 and 2 take the first two entries: 25-20-8 under Nadam, 35-25-8 under Adam, one
    // network padded to the wider (Adam and Nadam update by one formula, so they share it)
    expect(entry).toMatchObject({
      workload: 'tiny',
      replicas: 2,
      entries: 4,
      networks: ['35-25-8'],
      optimizers: ['Nadam', 'Adam'],
    });
    expect(entry.heterogeneousMs.count).toBe(2);
    expect(entry.ratio).toBeCloseTo(entry.heterogeneousMs.median / entry.homogeneousMs.median, 12);
    // padding masks and per-replica optimiser factors: more kernels per step
    expect(entry.heterogeneousKernels).toBeGreaterThan(entry.homogeneousKernels);
  });

  it('should measure the sgemm throughput and count the matrix products of three components', () => {
    expect(SGEMM_SIZES).toContain(result.sgemm.size);
    expect(result.sgemm.gflops).toBeCloseTo(
      productFlops(result.sgemm.size) / result.sgemm.stats.median / 1e6,
      9,
    );
    const two = result.configurations[1];
    if (two.status !== 'measured') throw new Error('skipped');
    const counted = two.components.filter((component) => component.flops !== null);
    expect(counted.map((component) => component.name)).toEqual(['network', 'dis', 'hadronic']);
    expect(counted.every((component) => (component.flops ?? 0) > 0)).toBe(true);
    const markdown = resultsMarkdown([result]);
    expect(markdown).toContain(
      "## Matrix products against the backend's sgemm and the BLAS's raw peak (same run)",
    );
    expect(result.blasPeak).toBeNull();
    expect(markdown.match(/^\| cpu \| [^|]+ \(n = \d+\) \| – \| tiny \| 2 \| /gm)).toHaveLength(3);
  });

  it('should divide wasm’s median step by every other backend’s, configuration by configuration', () => {
    const wasm = structuredClone(result);
    wasm.backend.name = 'wasm';
    for (const configuration of wasm.configurations) {
      if (configuration.status === 'measured') configuration.stepMs.median *= 4;
    }
    const markdown = resultsMarkdown([wasm, result]);
    const [one, two] = result.configurations;
    if (one.status !== 'measured' || two.status !== 'measured') throw new Error('skipped');
    expect(markdown).toContain(
      `| tiny | 2 | ${formatNumber(4 * two.stepMs.median)} | cpu | ${formatNumber(two.stepMs.median)} | **4.00×** |`,
    );
    expect(resultsMarkdown([result])).toContain('_No wasm result._');
  });

  it('should give the zero-block gain of nnpdf40-sparse over its dense twin, R by R', () => {
    const both = structuredClone(result);
    const measuredTwo = both.configurations[1];
    if (measuredTwo.status !== 'measured') throw new Error('skipped');
    const dense = { ...structuredClone(measuredTwo), workload: 'nnpdf40' };
    const sparse = { ...structuredClone(measuredTwo), workload: 'nnpdf40-sparse' };
    const hadronic = sparse.components.find((component) => component.name === 'hadronic');
    if (hadronic === undefined) throw new Error('no hadronic component');
    hadronic.stats.median /= 2.5;
    both.configurations = [dense, sparse];
    const denseMs = dense.components.find((component) => component.name === 'hadronic')?.stats
      .median;
    expect(resultsMarkdown([both])).toContain(
      `| cpu | 2 | ${formatNumber(denseMs ?? 0)} | ${formatNumber(hadronic.stats.median)} | 2.50× |`,
    );
    expect(resultsMarkdown([result])).toMatch(
      /## Zero blocks skipped: nnpdf40-sparse against its dense twin\n\n_None measured._/,
    );
  });

  it('should reject a workload it does not know', async () => {
    const options = parseBenchOptions(['--backend=cpu', '--skip=setup']);
    await expect(
      runBackend({ ...options, workloads: ['lhc'] }, () => undefined, { tiny: TINY_WORKLOAD }),
    ).rejects.toThrow(InvalidArgumentError);
  });
});
