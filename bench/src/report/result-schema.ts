import { z } from 'zod';
import { COMPONENT_NAMES } from '../components/component-names.js';

/** Version of the result layout; bump it when a field changes meaning. */
export const RESULT_SCHEMA_VERSION = 5;

const count = z.int().nonnegative();
const positiveCount = z.int().positive();
const seconds = z.number().nonnegative();

/** Summary statistics of a sample (see `summarize`), in ms unless said otherwise. */
export const sampleSummarySchema = z.strictObject({
  count: positiveCount,
  median: z.number(),
  mean: z.number(),
  min: z.number(),
  max: z.number(),
  p10: z.number(),
  p90: z.number(),
  iqr: z.number().nonnegative(),
  mad: z.number().nonnegative(),
});

const skipped = z.strictObject({ status: z.literal('skipped'), reason: z.string().min(1) });

/** The machine and software the numbers were measured on. */
export const machineSchema = z.strictObject({
  cpuModel: z.string(),
  cores: positiveCount,
  memoryGb: z.number().positive(),
  platform: z.string(),
  arch: z.string(),
  osRelease: z.string(),
  node: z.string(),
  tfjs: z.string(),
  /** `git rev-parse --short HEAD` of the checkout, null outside a git checkout. */
  commit: z.string().nullable(),
  /** 1-, 5- and 15-minute load averages at the start and the end of the run. */
  loadAverage: z.strictObject({
    start: z.array(z.number()).length(3),
    end: z.array(z.number()).length(3),
  }),
});

/** The settings of the run. */
export const settingsSchema = z.strictObject({
  mode: z.enum(['full', 'quick']),
  steps: positiveCount,
  warmup: positiveCount,
  logEvery: positiveCount,
  replicas: z.array(positiveCount).min(1),
  ratioReplicas: z.array(positiveCount),
  ratioWorkloads: z.array(z.string()),
  workloads: z.array(z.string()).min(1),
  /** Seconds a measurement may take before it is skipped; null = unlimited. */
  budgetSeconds: z.number().positive().nullable(),
  /** Parts left out (`setup`, `ratios`, `components`, `profile`, `crosscheck`). */
  skip: z.array(z.string()),
});

/** The shapes of a workload as built. */
export const workloadSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  ndata: positiveCount,
  disPoints: count,
  hadronicPoints: count,
  lagrangePoints: count,
  datasets: positiveCount,
  blocks: z.array(positiveCount).min(1),
  xNodes: positiveCount,
  integrationPoints: positiveCount,
  network: z.string(),
  split: z.string(),
  /** Building the synthetic inputs for the largest replica count (not a partonfit cost). */
  buildSeconds: seconds,
});

/** `prepareFitInputs` cold and from the HDF5 cache. */
export const setupSchema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('measured'),
    runcard: z.string(),
    replicas: positiveCount,
    ndata: positiveCount,
    coldSeconds: seconds,
    /** Until the cold call's cache file is in place (absent in results before it was measured). */
    coldCacheWrittenSeconds: seconds.optional(),
    cachedSeconds: seconds,
    /** CPU time (user + system) of the cold call: the work, whatever the machine's load. */
    coldCpuSeconds: seconds,
    cachedCpuSeconds: seconds,
    cacheHit: z.boolean(),
  }),
  skipped,
]);

/**
 * `prepareFitInputs` cold and from the HDF5 cache on an NNPDF4.0-sized synthetic theory folder,
 * commondata and runcard written to disk by the benchmark.
 */
export const setupNnpdf40Schema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('measured'),
    workload: z.string(),
    replicas: positiveCount,
    /** Data points of the measured datasets. */
    ndata: positiveCount,
    /** FK tables (datasets, positivity and integrability sets). */
    tables: positiveCount,
    /** Megabytes of files written and read. */
    megabytes: z.number().positive(),
    /** Writing the folder (not a partonfit cost). */
    writeSeconds: seconds,
    coldSeconds: seconds,
    /** Until the cold call's cache file is in place (absent in results before it was measured). */
    coldCacheWrittenSeconds: seconds.optional(),
    cachedSeconds: seconds,
    /** CPU time (user + system) of the cold call: the work, whatever the machine's load. */
    coldCpuSeconds: seconds,
    cachedCpuSeconds: seconds,
    cacheHit: z.boolean(),
  }),
  skipped,
]);

const componentSchema = z.strictObject({
  name: z.enum(COMPONENT_NAMES),
  description: z.string(),
  stats: sampleSummarySchema,
  /** FLOPs of one call's matrix products (network, DIS, hadronic), else null. */
  flops: z.number().nonnegative().nullable(),
});

/**
 * The BLAS's raw float32 peak (native only): one `(n, n)` sgemm per thread of the addon's pool at
 * once, called directly.
 */
export const blasPeakSchema = z.strictObject({
  size: positiveCount,
  threads: positiveCount,
  /** `threads · 2 n³` over the median round, GFLOP/s. */
  gflops: z.number().positive(),
});

/** The hadronic contraction on a real table as it is and with no zero left to skip. */
export const realTableZeroBlocksSchema = z.strictObject({
  table: z.string(),
  x: positiveCount,
  channels: positiveCount,
  data: positiveCount,
  zeroFraction: z.number().min(0).max(1),
  sparseMs: z.number().positive(),
  denseMs: z.number().positive(),
  replicas: positiveCount,
});

/**
 * The generic path (wasm, cpu) on a group of hadronic tables at one R, dense against with the
 * all-zero (channel, x1, x2) rows dropped: sums over the tables of median ms.
 */
export const genericZeroRowsSchema = z.strictObject({
  /** A real table's file, or `<workload> hadronic`. */
  name: z.string(),
  tables: positiveCount,
  rows: positiveCount,
  zeroRowShare: z.number().min(0).max(1),
  replicas: positiveCount,
  denseMs: z.number().positive(),
  compactMs: z.number().positive(),
  denseCpuMs: z.number().nonnegative(),
  compactCpuMs: z.number().nonnegative(),
});

/** `tf.matMul` of two `(n, n)` float32 matrices on the backend: its float32 peak. */
export const sgemmSchema = z.strictObject({
  size: positiveCount,
  stats: sampleSummarySchema,
  /** 2 n³ / median, GFLOP/s. */
  gflops: z.number().positive(),
});

const profileSchema = z.strictObject({
  wallMs: z.number().nonnegative(),
  kernelMs: z.number().nonnegative(),
  /** Registered kernels the step ran, all of them (absent from results before 2026-11-24). */
  kernelCalls: positiveCount.optional(),
  kernels: z.array(
    z.strictObject({ kernel: z.string(), ms: z.number().nonnegative(), calls: positiveCount }),
  ),
});

/** One workload at one replica count. */
export const configurationSchema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('measured'),
    workload: z.string(),
    replicas: positiveCount,
    /** Building model, objective, optimiser and stopping (uploading every tensor), s. */
    partsSeconds: seconds,
    /**
     * The first step, ms: the observable layers upload their FK tables when first called, and
     * kernels, optimiser slots and the wasm heap are set up — set-up to the first step is
     * `partsSeconds` plus this.
     */
    firstStepMs: z.number().nonnegative(),
    /** ms per training step after warm-up. */
    stepMs: sampleSummarySchema,
    /** 1000 × median ms / replicas. */
    usPerReplicaStep: z.number().nonnegative(),
    /** median(R) / (R × median(1)); null without a measured R = 1. */
    speedup: z.number().nonnegative().nullable(),
    syncs: z.strictObject({
      logEvery: positiveCount,
      perStep: z.number().nonnegative(),
      perReadBack: z.number().nonnegative(),
      per100Steps: z.number().nonnegative(),
    }),
    tensors: z.strictObject({
      /** Same tensors and bytes after every measured step. */
      flat: z.boolean(),
      series: z.array(z.strictObject({ step: count, numTensors: count, numBytes: count })),
      /** Tensors still alive after everything of this configuration was freed. */
      leakedAfterDispose: z.int(),
    }),
    /**
     * Largest resident set size of the process sampled during this configuration (after every
     * seed step and after each phase), MB; the wasm heap never shrinks, so it includes what
     * earlier configurations of the run grew it to.
     */
    rssPeakMb: z.number().positive(),
    components: z.array(componentSchema),
    /** Σ of the components' medians, ms. */
    componentSumMs: z.number().nonnegative().nullable(),
    /** Step median − component sum, ms (framework overhead and what isolation misses). */
    unaccountedMs: z.number().nullable(),
    profile: profileSchema.nullable(),
    /**
     * `trainReplicas` itself for `2 · steps` epochs with a read-back every `steps`: ms per
     * epoch over the second half (after its own warm-up) and the host reads of the whole call.
     */
    crossCheck: z
      .strictObject({
        epochs: positiveCount,
        msPerStep: z.number().nonnegative(),
        hostReads: count,
      })
      .nullable(),
  }),
  z.strictObject({
    status: z.literal('skipped'),
    workload: z.string(),
    replicas: positiveCount,
    reason: z.string().min(1),
  }),
]);

/** The five naive-vs-seed ratios' names. */
export const RATIO_NAMES = [
  'perReplicaModels',
  'gatheredSplit',
  'secondPassValidation',
  'readBackEveryStep',
  'fitStyleEpochs',
] as const;

/**
 * One naive variant against the seed step: both run on the same training parts in alternation
 * (a seed step, a naive step, …), so both see the same machine load; `seedMs` are the seed
 * steps of that alternating run.
 */
export const ratioSchema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('measured'),
    name: z.enum(RATIO_NAMES),
    description: z.string(),
    workload: z.string(),
    replicas: positiveCount,
    seedMs: sampleSummarySchema,
    naiveMs: sampleSummarySchema,
    /** naive median / seed median. */
    ratio: z.number().positive(),
    /** Host syncs per 100 steps of the naive variant. */
    naiveSyncsPer100Steps: z.number().nonnegative(),
  }),
  z.strictObject({
    status: z.literal('skipped'),
    name: z.enum(RATIO_NAMES),
    description: z.string(),
    workload: z.string(),
    replicas: positiveCount,
    reason: z.string().min(1),
  }),
]);

/**
 * A fit whose replicas have their own hyperparameters (four architectures, two optimisers)
 * against the homogeneous NNPDF4.0 step, same workload and R, run in alternation.
 */
export const heterogeneousSchema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('measured'),
    workload: z.string(),
    replicas: positiveCount,
    /** Distinct settings among the replicas (`parameters_per_replica` entries). */
    entries: positiveCount,
    /** The model's networks (one per optimiser formula and depth/activations), e.g. `35-30-8`. */
    networks: z.array(z.string()),
    /** The replicas' optimisers, in the order of their first row. */
    optimizers: z.array(z.string()),
    homogeneousMs: sampleSummarySchema,
    heterogeneousMs: sampleSummarySchema,
    /** heterogeneous median / homogeneous median. */
    ratio: z.number().positive(),
    /** Kernels dispatched by one step of each. */
    homogeneousKernels: positiveCount,
    heterogeneousKernels: positiveCount,
  }),
  z.strictObject({
    status: z.literal('skipped'),
    workload: z.string(),
    replicas: positiveCount,
    entries: positiveCount,
    reason: z.string().min(1),
  }),
]);

/**
 * The native step of one workload at one R with the addon's pool at one thread count
 * (`--threads`; each count runs in its own process).
 */
export const threadScalingSchema = z.strictObject({
  workload: z.string(),
  replicas: positiveCount,
  /** Threads of the addon's pool, the calling thread included. */
  threads: positiveCount,
  /** ms per training step after warm-up. */
  stepMs: sampleSummarySchema,
  /** Median at 1 thread / median at `threads`; null without a 1-thread run of this configuration. */
  speedup: z.number().positive().nullable(),
  /** `speedup / threads`: 1 is perfect scaling. */
  efficiency: z.number().positive().nullable(),
  /** Each component's median ms at this thread count (empty with `--skip components`). */
  components: z.array(
    z.strictObject({ name: z.enum(COMPONENT_NAMES), medianMs: z.number().nonnegative() }),
  ),
});

/** The JSON written to `bench/results/<date>-<backend>.json`. */
export const benchResultSchema = z.strictObject({
  schemaVersion: z.literal(RESULT_SCHEMA_VERSION),
  createdAt: z.iso.datetime(),
  backend: z.strictObject({ name: z.string(), packageName: z.string(), runsOn: z.string() }),
  machine: machineSchema,
  settings: settingsSchema,
  workloads: z.array(workloadSchema),
  setup: setupSchema,
  setupNnpdf40: setupNnpdf40Schema,
  /** The backend's matrix-product throughput, measured before the workloads. */
  sgemm: sgemmSchema,
  /** The BLAS's raw peak, on the native backend; null elsewhere. */
  blasPeak: blasPeakSchema.nullable(),
  /** The zero-block gain on the shared data's real hadronic tables (native; else empty). */
  realTableZeroBlocks: z.array(realTableZeroBlocksSchema),
  /**
   * The zero-row gain of the generic path on the real tables and the sparse workloads (not
   * native; else empty; missing in results written before it was measured).
   */
  genericZeroRows: z.array(genericZeroRowsSchema).default([]),
  configurations: z.array(configurationSchema),
  ratios: z.array(ratioSchema),
  /** Replicas with their own hyperparameters (missing in results written before it was measured). */
  heterogeneous: z.array(heterogeneousSchema).default([]),
  /**
   * The native step at every thread count of `--threads` (schemaVersion 5); empty without it and
   * on other backends. The rest of the result is the run at the largest thread count.
   */
  threadScaling: z.array(threadScalingSchema),
  /** The process's peak resident set size (`maxRSS`), MB. */
  peakRssMb: z.number().positive(),
  totalSeconds: seconds,
});

/** A benchmark result of one backend. */
export type BenchResult = z.infer<typeof benchResultSchema>;
/** One configuration's entry. */
export type ConfigurationResult = z.infer<typeof configurationSchema>;
/** A measured configuration's entry. */
export type MeasuredConfiguration = Extract<ConfigurationResult, { status: 'measured' }>;
/** One ratio's entry. */
export type RatioResult = z.infer<typeof ratioSchema>;
/** One configuration at one thread count. */
export type ThreadScalingResult = z.infer<typeof threadScalingSchema>;
/** The heterogeneous row's entry. */
export type HeterogeneousResult = z.infer<typeof heterogeneousSchema>;
/** One of {@link RATIO_NAMES}. */
export type RatioName = (typeof RATIO_NAMES)[number];
/** A workload's entry. */
export type WorkloadResult = z.infer<typeof workloadSchema>;
/** The set-up entry. */
export type SetupResult = z.infer<typeof setupSchema>;
/** The NNPDF4.0-sized set-up entry. */
export type SetupNnpdf40Result = z.infer<typeof setupNnpdf40Schema>;
/** The machine entry. */
export type MachineResult = z.infer<typeof machineSchema>;
/** The settings entry. */
export type SettingsResult = z.infer<typeof settingsSchema>;

/** The configurations of a result that were measured, not skipped. */
export function measuredConfigurations(result: BenchResult): MeasuredConfiguration[] {
  return result.configurations.filter(
    (configuration): configuration is MeasuredConfiguration => configuration.status === 'measured',
  );
}
