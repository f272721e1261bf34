import * as tf from '@tensorflow/tfjs-core';
import type { FitInputs } from '@partonfit/fktables';
import type { IntegrationGrid } from '@partonfit/layers';
import { buildTrainingParts, trainReplicas, type TrainingParts } from '@partonfit/trainer';
import type { BenchOptions } from '../cli/options.js';
import { COMPONENT_NAMES } from '../components/component-names.js';
import {
  timeLayerComponents,
  timeModelComponents,
  type ComponentTiming,
} from '../components/time-components.js';
import { installReadCounter } from '../instrument/read-counter.js';
import { thinSeries } from '../instrument/memory-trace.js';
import { profileStep, type StepProfile } from '../measure/profile-step.js';
import { runPairedSteps, runSteps } from '../measure/run-steps.js';
import type { ConfigurationResult, RatioResult } from '../report/result-schema.js';
import { summarize } from '../stats/summary.js';
import type { BenchStep } from '../steps/bench-step.js';
import { seedStep } from '../steps/seed-step.js';
import { benchRuncard } from '../workloads/bench-runcard.js';
import type { BenchWorkload } from '../workloads/build-workload.js';
import { RATIO_VARIANTS, type VariantContext } from './ratio-variants.js';

/** Samples of the tensors-alive series kept in the result. */
const MEMORY_SAMPLES = 50;

/** What one configuration (workload × replica count) is measured with. */
export interface ConfigurationRequest {
  readonly workload: BenchWorkload;
  /** The fit inputs of the first R replicas. */
  readonly inputs: FitInputs;
  readonly integration: IntegrationGrid;
  readonly options: BenchOptions;
  /** Whether to run the five naive variants at this replica count. */
  readonly ratios: boolean;
  /** Progress lines, e.g. to stderr. */
  readonly log: (line: string) => void;
}

/** The configuration's entry and its ratios. */
export interface ConfigurationOutcome {
  readonly configuration: ConfigurationResult;
  readonly ratios: RatioResult[];
}

function disposeParts(parts: TrainingParts): void {
  parts.stopping.dispose();
  parts.optimizer.dispose();
  parts.objective.dispose();
  parts.model.dispose();
}

/** The largest resident set size seen at the calls of `sample`. */
class RssPeak {
  bytes = process.memoryUsage.rss();

  sample(): void {
    this.bytes = Math.max(this.bytes, process.memoryUsage.rss());
  }
}

async function measureRatios(
  context: VariantContext,
  request: ConfigurationRequest,
  seed: BenchStep,
  rss: RssPeak,
): Promise<RatioResult[]> {
  const { options, log } = request;
  const key = { workload: request.workload.spec.name, replicas: request.inputs.replicas.length };
  const ratios: RatioResult[] = [];
  for (const variant of RATIO_VARIANTS) {
    const described = { ...key, name: variant.name, description: variant.description };
    const naive = variant.build(context);
    try {
      const run = await runPairedSteps(seed, naive, {
        warmup: options.warmup,
        steps: options.steps,
        logEvery: options.logEvery,
        comparedLogEvery: variant.logEvery(context),
        budgetSeconds: options.budgetSeconds,
      });
      rss.sample();
      if (run.status === 'skipped') {
        ratios.push({ ...described, status: 'skipped', reason: run.reason });
        log(`  ${variant.name}: skipped (${run.reason})`);
        continue;
      }
      const seedMs = summarize(run.referenceMs);
      const naiveMs = summarize(run.comparedMs);
      const ratio = naiveMs.median / seedMs.median;
      ratios.push({
        ...described,
        status: 'measured',
        seedMs,
        naiveMs,
        ratio,
        naiveSyncsPer100Steps: run.comparedReads.per100Steps,
      });
      log(
        `  ${variant.name}: ${naiveMs.median.toFixed(1)} vs ${seedMs.median.toFixed(1)} ms/step, ${ratio.toFixed(2)}×`,
      );
    } finally {
      naive.dispose();
    }
  }
  return ratios;
}

/**
 * `trainReplicas` itself for 2 · steps epochs with a read-back every `steps` epochs: ms per
 * epoch over the second half (after its own warm-up), from the progress callbacks' times, and
 * the host reads of the whole call. Null when projected over the budget.
 */
async function crossCheck(request: ConfigurationRequest, seedMedianMs: number) {
  const { workload, inputs, integration, options, log } = request;
  const epochs = 2 * options.steps;
  if ((epochs * seedMedianMs) / 1000 > options.budgetSeconds) {
    log(`  trainReplicas cross-check skipped: ${epochs} epochs would exceed the budget`);
    return null;
  }
  const times = new Map<number, number>();
  const counter = installReadCounter();
  try {
    const result = await trainReplicas(benchRuncard(workload.spec, epochs), inputs, {
      integrationGrid: integration,
      logEvery: options.steps,
      onProgress: (progress) => times.set(progress.epoch, performance.now()),
    });
    result.objective.dispose();
    result.model.dispose();
    const half = times.get(options.steps);
    const end = times.get(epochs);
    if (half === undefined || end === undefined) return null;
    return {
      epochs: result.epochsRun,
      msPerStep: (end - half) / (epochs - options.steps),
      hostReads: counter.count,
    };
  } finally {
    counter.uninstall();
  }
}

/**
 * Measures one workload at one replica count on the active backend: builds the training parts,
 * runs the seed step (warm-up, then timed steps; read-backs, tensors alive, RSS), profiles one
 * step, runs the five naive variants on the same parts when asked, times the components, and runs
 * `trainReplicas` itself as a cross-check — every part within the budget, or skipped with a
 * reason.
 */
export async function measureConfiguration(
  request: ConfigurationRequest,
): Promise<ConfigurationOutcome> {
  const { workload, inputs, integration, options, log } = request;
  const replicas = inputs.replicas.length;
  const key = { workload: workload.spec.name, replicas };
  const tensorsBefore = tf.memory().numTensors;
  const rss = new RssPeak();
  const partsStart = performance.now();
  const parts = buildTrainingParts(workload.runcard, inputs, integration);
  const partsSeconds = (performance.now() - partsStart) / 1000;
  const seed = seedStep(parts, inputs, { logEvery: options.logEvery });
  let profile: StepProfile | null = null;
  let ratios: RatioResult[] = [];
  const components: ComponentTiming[] = [];
  const componentContext = {
    runcard: workload.runcard,
    inputs,
    integration,
    repeats: options.mode === 'quick' ? 3 : options.steps,
  };
  let run: Awaited<ReturnType<typeof runSteps>>;
  let partsFreed = false;
  try {
    run = await runSteps(seed, {
      warmup: options.warmup,
      steps: options.steps,
      logEvery: options.logEvery,
      budgetSeconds: options.budgetSeconds,
    });
    if (run.status === 'skipped') {
      log(`${workload.spec.name} R=${replicas}: skipped (${run.reason})`);
      return { configuration: { ...key, status: 'skipped', reason: run.reason }, ratios: [] };
    }
    const median = summarize(run.stepMs).median;
    log(`${workload.spec.name} R=${replicas}: ${median.toFixed(1)} ms/step`);
    if (!options.skip.has('profile')) {
      profile = await profileStep(seed, options.warmup + options.steps);
    }
    if (request.ratios && !options.skip.has('ratios')) {
      ratios = await measureRatios(
        { parts, runcard: workload.runcard, inputs, integration, logEvery: options.logEvery },
        request,
        seed,
        rss,
      );
    }
    if (!options.skip.has('components')) {
      components.push(...(await timeModelComponents(parts, componentContext)));
    }
    rss.sample();
    seed.dispose();
    disposeParts(parts);
    partsFreed = true;
  } finally {
    if (!partsFreed) {
      seed.dispose();
      disposeParts(parts);
    }
  }
  const measured = run;
  const stepMs = summarize(measured.stepMs);
  const checked = options.skip.has('crosscheck') ? null : await crossCheck(request, stepMs.median);
  rss.sample();
  if (!options.skip.has('components')) {
    components.push(...(await timeLayerComponents(componentContext)));
  }
  rss.sample();
  components.sort((a, b) => COMPONENT_NAMES.indexOf(a.name) - COMPONENT_NAMES.indexOf(b.name));
  const componentSumMs =
    components.length === 0
      ? null
      : components.reduce((sum, component) => sum + component.stats.median, 0);
  return {
    configuration: {
      ...key,
      status: 'measured',
      partsSeconds,
      firstStepMs: measured.firstStepMs,
      stepMs,
      usPerReplicaStep: (1000 * stepMs.median) / replicas,
      speedup: null,
      syncs: {
        logEvery: options.logEvery,
        perStep: measured.reads.perStep,
        perReadBack: measured.reads.perReadBack,
        per100Steps: measured.reads.per100Steps,
      },
      tensors: {
        flat: measured.memory.flat,
        series: thinSeries(measured.memory.series, MEMORY_SAMPLES),
        leakedAfterDispose: tf.memory().numTensors - tensorsBefore,
      },
      rssPeakMb: Math.max(rss.bytes, measured.memory.rssPeakBytes) / 2 ** 20,
      components,
      componentSumMs,
      unaccountedMs: componentSumMs === null ? null : stepMs.median - componentSumMs,
      profile: profile === null ? null : { ...profile, kernels: [...profile.kernels] },
      crossCheck: checked,
    },
    ratios,
  };
}
