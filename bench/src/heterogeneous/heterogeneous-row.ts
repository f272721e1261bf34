import { parseRuncard, type Runcard } from '@partonfit/core';
import type { IntegrationGrid } from '@partonfit/layers';
import {
  buildTrainingParts,
  disposeTrainingParts,
  replicaTrainingOrder,
  type TrainingParts,
} from '@partonfit/trainer';
import type { BenchOptions } from '../cli/options.js';
import { profileStep } from '../measure/profile-step.js';
import { runPairedSteps } from '../measure/run-steps.js';
import type { HeterogeneousResult } from '../report/result-schema.js';
import { summarize } from '../stats/summary.js';
import { seedStep } from '../steps/seed-step.js';
import { benchRuncardCard } from '../workloads/bench-runcard.js';
import { buildWorkload } from '../workloads/build-workload.js';
import type { WorkloadSpec } from '../workloads/workload-spec.js';

/**
 * The replicas' own methodologies of the heterogeneous row: four architectures (25-20-8,
 * 35-25-8, 20-15-8, 30-30-8, all tanh/tanh/linear) and two optimisers (NNPDF4.0's Nadam, Adam),
 * replica r taking entry (r − 1) mod 4.
 */
export const HETEROGENEOUS_ENTRIES = [
  { nodes_per_layer: [25, 20, 8] },
  { nodes_per_layer: [35, 25, 8], optimizer: { optimizer_name: 'Adam', learning_rate: 1e-3 } },
  { nodes_per_layer: [20, 15, 8] },
  { nodes_per_layer: [30, 30, 8], optimizer: { optimizer_name: 'Adam', learning_rate: 1e-3 } },
];

/** The benchmark runcard of a workload with {@link HETEROGENEOUS_ENTRIES} per replica. */
export function heterogeneousRuncard(spec: WorkloadSpec): Runcard {
  const card = { ...benchRuncardCard(spec), parameters_per_replica: HETEROGENEOUS_ENTRIES };
  return parseRuncard(JSON.stringify(card)).runcard;
}

/** What {@link measureHeterogeneous} needs. */
export interface HeterogeneousRequest {
  readonly spec: WorkloadSpec;
  readonly replicas: number;
  readonly integration: IntegrationGrid;
  readonly options: BenchOptions;
  readonly log: (line: string) => void;
}

/**
 * The step of a fit whose replicas have their own hyperparameters against the homogeneous
 * NNPDF4.0 step (25-20-8, Nadam), at the same R on the same workload, in alternation (a
 * homogeneous step, a heterogeneous step, …) so both see the same machine load; and the kernels
 * each step dispatches. Both fits' inputs are built for the heterogeneous fit's replica order
 * (each replica's arrays come from its own seeds, so the homogeneous fit is the usual one).
 */
export async function measureHeterogeneous(
  request: HeterogeneousRequest,
): Promise<HeterogeneousResult> {
  const { spec, replicas, integration, options, log } = request;
  const runcard = heterogeneousRuncard(spec);
  const order = replicaTrainingOrder(
    runcard,
    Array.from({ length: replicas }, (_, r) => r + 1),
  );
  const workload = buildWorkload(spec, order);
  const key = { workload: spec.name, replicas, entries: HETEROGENEOUS_ENTRIES.length };
  let homogeneous: TrainingParts | undefined;
  let heterogeneous: TrainingParts | undefined;
  const homogeneousRuncard = parseRuncard(JSON.stringify(benchRuncardCard(spec))).runcard;
  try {
    homogeneous = buildTrainingParts(homogeneousRuncard, workload.inputs, integration);
    heterogeneous = buildTrainingParts(runcard, workload.inputs, integration);
    const reference = seedStep(homogeneous, workload.inputs, { logEvery: options.logEvery });
    const compared = seedStep(heterogeneous, workload.inputs, { logEvery: options.logEvery });
    try {
      const run = await runPairedSteps(reference, compared, {
        warmup: options.warmup,
        steps: options.steps,
        logEvery: options.logEvery,
        comparedLogEvery: options.logEvery,
        budgetSeconds: options.budgetSeconds,
      });
      if (run.status === 'skipped') {
        log(`heterogeneous ${spec.name} R=${replicas}: skipped (${run.reason})`);
        return { ...key, status: 'skipped', reason: run.reason };
      }
      const epoch = options.warmup + options.steps;
      const [homogeneousProfile, heterogeneousProfile] = [
        await profileStep(reference, epoch),
        await profileStep(compared, epoch),
      ];
      const homogeneousMs = summarize(run.referenceMs);
      const heterogeneousMs = summarize(run.comparedMs);
      const ratio = heterogeneousMs.median / homogeneousMs.median;
      const networks = heterogeneous.model.networks.map((network) => network.units.join('-'));
      log(
        `heterogeneous ${spec.name} R=${replicas} (networks ${networks.join(', ')}): ${heterogeneousMs.median.toFixed(1)} vs ${homogeneousMs.median.toFixed(1)} ms/step, ${ratio.toFixed(2)}×; kernels per step ${heterogeneousProfile.kernelCalls} vs ${homogeneousProfile.kernelCalls}`,
      );
      return {
        ...key,
        status: 'measured',
        networks,
        optimizers: [
          ...new Set(
            heterogeneous.model.methodology.parameters.map(
              (parameters) => parameters.optimizer.optimizer_name,
            ),
          ),
        ],
        homogeneousMs,
        heterogeneousMs,
        ratio,
        homogeneousKernels: homogeneousProfile.kernelCalls,
        heterogeneousKernels: heterogeneousProfile.kernelCalls,
      };
    } finally {
      reference.dispose();
      compared.dispose();
    }
  } finally {
    if (homogeneous !== undefined) disposeTrainingParts(homogeneous);
    if (heterogeneous !== undefined) disposeTrainingParts(heterogeneous);
  }
}
