import { summarize } from '../stats/summary.js';
import {
  RESULT_SCHEMA_VERSION,
  type BenchResult,
  type ConfigurationResult,
  type MeasuredConfiguration,
} from './result-schema.js';

/**
 * A measured configuration whose steps took `stepMs` (median, with ±1 ms either side) and whose
 * components took the given medians; everything else empty or zero.
 */
export function measuredConfigurationFixture(
  workload: string,
  replicas: number,
  stepMs: number,
  components: Partial<Record<MeasuredConfiguration['components'][number]['name'], number>> = {},
): MeasuredConfiguration {
  return {
    status: 'measured',
    workload,
    replicas,
    partsSeconds: 0.5,
    firstStepMs: 2 * stepMs,
    stepMs: summarize([stepMs - 1, stepMs, stepMs + 1]),
    usPerReplicaStep: (1000 * stepMs) / replicas,
    speedup: null,
    syncs: { logEvery: 100, perStep: 0, perReadBack: 5, per100Steps: 5 },
    tensors: { flat: true, series: [], leakedAfterDispose: 0 },
    rssPeakMb: 500,
    components: Object.entries(components).map(([name, median]) => ({
      name: name as MeasuredConfiguration['components'][number]['name'],
      description: name,
      stats: summarize([median]),
      flops: null,
    })),
    componentSumMs: null,
    unaccountedMs: null,
    profile: null,
    crossCheck: null,
  };
}

/**
 * A native result with these configurations of these workloads, its BLAS peak measured on
 * `threads` threads, and nothing else measured.
 */
export function nativeResultFixture(
  threads: number,
  workloads: readonly string[],
  configurations: readonly ConfigurationResult[],
): BenchResult {
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    createdAt: '2026-12-01T10:00:00.000Z',
    backend: { name: 'native', packageName: '@partonfit/backend-native', runsOn: 'CPU' },
    machine: {
      cpuModel: 'test CPU',
      cores: 2,
      memoryGb: 8,
      platform: 'linux',
      arch: 'x64',
      osRelease: '6.1',
      node: 'v22.0.0',
      tfjs: '4.22.0',
      commit: null,
      loadAverage: { start: [0.1, 0.1, 0.1], end: [0.2, 0.1, 0.1] },
    },
    settings: {
      mode: 'full',
      steps: 3,
      warmup: 1,
      logEvery: 100,
      replicas: [...new Set(configurations.map((c) => c.replicas))],
      ratioReplicas: [],
      ratioWorkloads: [],
      workloads: [...workloads],
      budgetSeconds: 900,
      skip: ['setup'],
    },
    workloads: [],
    setup: { status: 'skipped', reason: '--skip setup' },
    setupNnpdf40: { status: 'skipped', reason: '--skip setup' },
    sgemm: { size: 256, stats: summarize([1]), gflops: 33.5 },
    blasPeak: { size: 1024, threads, gflops: 100 * threads },
    realTableZeroBlocks: [],
    genericZeroRows: [],
    configurations: [...configurations],
    ratios: [],
    heterogeneous: [],
    threadScaling: [],
    peakRssMb: 500,
    totalSeconds: 10,
  };
}
