import { InvalidArgumentError } from '@partonfit/core';
import { initBackend, type BackendRequest } from '@partonfit/backend';
import { measureBlasPeak } from '@partonfit/backend-native';
import { gaussIntegrationGrid, type IntegrationGrid } from '@partonfit/layers';
import type { BenchOptions } from '../cli/options.js';
import {
  RESULT_SCHEMA_VERSION,
  type BenchResult,
  type ConfigurationResult,
  type HeterogeneousResult,
  type RatioResult,
  type SetupNnpdf40Result,
  type SetupResult,
  type WorkloadResult,
} from '../report/result-schema.js';
import { measureNnpdf40SetupTime } from '../setup-time/nnpdf40-setup.js';
import { measureHeterogeneous } from '../heterogeneous/heterogeneous-row.js';
import {
  measureSetupTime,
  setupRuncardFile,
  SHARED_DATA_FOLDER,
} from '../setup-time/setup-time.js';
import { buildWorkload, type BenchWorkload } from '../workloads/build-workload.js';
import { firstReplicas } from '../workloads/first-replicas.js';
import type { WorkloadSpec } from '../workloads/workload-spec.js';
import { WORKLOADS } from '../workloads/workloads.js';
import { loadAverage, machineInfo } from './machine.js';
import { measureConfiguration } from './measure-configuration.js';
import { measureSgemmThroughput } from '../measure/sgemm-throughput.js';
import { wasmMemoryProblem } from './wasm-memory.js';
import { toFkTensor } from '@partonfit/fktables';
import {
  hadronicTables,
  measureGenericZeroRowsWithinBudget,
  type GenericZeroRows,
} from '../zero-blocks/generic-path.js';
import { loadRealHadronicTables, measureRealTableZeroBlocks } from '../zero-blocks/real-tables.js';

/** Integration points of the sum rules: the trainer's default 100-point Gauss–Legendre grid. */
export const INTEGRATION_POINTS = 100;

/** Timed calls per variant, table and R of the generic path's zero-row measurement. */
export const ZERO_ROWS_REPEATS = 5;

function workloadEntry(workload: BenchWorkload, integration: IntegrationGrid): WorkloadResult {
  const { spec, counts, runcard } = workload;
  const { parameters } = runcard;
  return {
    name: spec.name,
    description: spec.description,
    ndata: workload.inputs.ndata,
    disPoints: counts.dis,
    hadronicPoints: counts.hadronic,
    lagrangePoints: counts.lagrange,
    datasets: spec.datasets.length,
    blocks: [...counts.blocks],
    xNodes: workload.inputs.xGrid.length,
    integrationPoints: integration.x.length,
    network: `2-${parameters.nodes_per_layer.join('-')} (${parameters.activation_per_layer.join(', ')}), ${parameters.optimizer.optimizer_name}`,
    split: `diagonal basis, ${Math.round(100 * runcard.diagonal_frac)} % of the eigenmodes for training`,
    buildSeconds: workload.buildSeconds,
  };
}

async function setupEntry(options: BenchOptions): Promise<SetupResult> {
  if (options.skip.has('setup')) return { status: 'skipped', reason: '--skip setup' };
  try {
    const timing = await measureSetupTime(setupRuncardFile(), Math.max(...options.replicas));
    return { status: 'measured', ...timing };
  } catch (error) {
    return { status: 'skipped', reason: `failed: ${String(error)}` };
  }
}

async function setupNnpdf40Entry(options: BenchOptions): Promise<SetupNnpdf40Result> {
  if (options.skip.has('setup')) return { status: 'skipped', reason: '--skip setup' };
  try {
    const timing = await measureNnpdf40SetupTime(Math.max(...options.replicas));
    return { status: 'measured', ...timing };
  } catch (error) {
    return { status: 'skipped', reason: `failed: ${String(error)}` };
  }
}

/** median(R) / (R × median(1)) for every measured configuration of a workload with a measured R = 1. */
function withSpeedups(configurations: ConfigurationResult[]): ConfigurationResult[] {
  const single = new Map<string, number>();
  for (const c of configurations) {
    if (c.status === 'measured' && c.replicas === 1) single.set(c.workload, c.stepMs.median);
  }
  return configurations.map((c) => {
    const one = single.get(c.workload);
    if (c.status !== 'measured' || one === undefined) return c;
    return { ...c, speedup: c.stepMs.median / (c.replicas * one) };
  });
}

/** The BLAS's raw peak on the native backend: 1024² products, one per thread, five rounds. */
function rawBlasPeak(): BenchResult['blasPeak'] {
  const peak = measureBlasPeak(1024, 5);
  return peak === undefined
    ? null
    : { size: peak.size, threads: peak.threads, gflops: peak.gflops };
}

/**
 * Runs the whole benchmark on one backend in this process (`options.backend`): set-up time, then
 * for every workload and replica count (ascending) the configuration's measurements, skipping a
 * replica count whose projected time (linear in R from the last measured one) exceeds the budget.
 *
 * @param log - progress lines
 * @param workloadSpecs - the workloads `options.workloads` names (default {@link WORKLOADS})
 * @throws BackendUnavailableError - when the backend cannot be loaded
 * @throws InvalidArgumentError - for a workload name that `workloadSpecs` lacks
 */
export async function runBackend(
  options: BenchOptions,
  log: (line: string) => void,
  workloadSpecs: Readonly<Record<string, WorkloadSpec>> = WORKLOADS,
): Promise<BenchResult> {
  const start = performance.now();
  const loadStart = loadAverage();
  if (options.backend === undefined) {
    throw new InvalidArgumentError({ argument: '--backend', problem: 'expected a backend name' });
  }
  const unknown = options.workloads.find((name) => !Object.hasOwn(workloadSpecs, name));
  if (unknown !== undefined) {
    throw new InvalidArgumentError({
      argument: '--workloads',
      problem: `unknown workload '${unknown}'; expected one of ${Object.keys(workloadSpecs).join(', ')}`,
    });
  }
  const selection = await initBackend(options.backend as BackendRequest);
  const prefix = (line: string) => {
    log(`[${selection.backend}] ${line}`);
  };
  const integration = gaussIntegrationGrid(INTEGRATION_POINTS);
  const setup = await setupEntry(options);
  const setupNnpdf40 = await setupNnpdf40Entry(options);
  if (setupNnpdf40.status === 'measured') {
    const written = setupNnpdf40.coldCacheWrittenSeconds;
    prefix(
      `set-up cold/cached at NNPDF4.0 size (${setupNnpdf40.ndata} points, ${setupNnpdf40.tables} tables, R = ${setupNnpdf40.replicas}): ${setupNnpdf40.coldSeconds.toFixed(2)} s${written === undefined ? '' : ` (cache on disk at ${written.toFixed(2)} s)`} / ${setupNnpdf40.cachedSeconds.toFixed(2)} s (CPU ${setupNnpdf40.coldCpuSeconds.toFixed(2)} s / ${setupNnpdf40.cachedCpuSeconds.toFixed(2)} s)`,
    );
  }
  const sgemm = await measureSgemmThroughput(options.steps);
  prefix(`sgemm ${sgemm.size}: ${sgemm.gflops.toFixed(1)} GFLOP/s`);
  const blasPeak = selection.backend === 'native' ? rawBlasPeak() : null;
  if (blasPeak !== null) {
    prefix(
      `raw sgemm ${blasPeak.threads} × ${blasPeak.size}: ${blasPeak.gflops.toFixed(1)} GFLOP/s`,
    );
  }
  const realTableZeroBlocks =
    selection.backend === 'native' && !options.skip.has('zero-blocks')
      ? await measureRealTableZeroBlocks(
          SHARED_DATA_FOLDER,
          Math.max(...options.replicas),
          options.steps,
        )
      : [];
  for (const entry of realTableZeroBlocks) {
    prefix(
      `${entry.table}: ${(100 * entry.zeroFraction).toFixed(0)} % zeros, ${entry.denseMs.toFixed(2)} → ${entry.sparseMs.toFixed(2)} ms`,
    );
  }
  const genericZeroRows: GenericZeroRows[] = [];
  const measuresZeroRows = selection.backend !== 'native' && !options.skip.has('zero-blocks');
  const measureZeroRows = (name: string, tables: ReturnType<typeof hadronicTables>) => {
    const entries = measureGenericZeroRowsWithinBudget(
      { name, tables },
      options.replicas,
      Math.min(options.steps, ZERO_ROWS_REPEATS),
      options.budgetSeconds,
    );
    for (const entry of entries) {
      prefix(
        `${name} R=${entry.replicas}: ${(100 * entry.zeroRowShare).toFixed(0)} % zero rows, ${entry.denseMs.toFixed(2)} → ${entry.compactMs.toFixed(2)} ms with them dropped`,
      );
    }
    genericZeroRows.push(...entries);
  };
  if (measuresZeroRows) {
    for (const { file, table } of await loadRealHadronicTables(SHARED_DATA_FOLDER)) {
      const tensor = toFkTensor(table, 0);
      if (tensor.kind === 'hadronic') measureZeroRows(file, [tensor]);
    }
  }
  const workloads: WorkloadResult[] = [];
  let configurations: ConfigurationResult[] = [];
  const ratios: RatioResult[] = [];
  const maxReplicas = Math.max(...options.replicas);
  for (const name of options.workloads) {
    const spec = workloadSpecs[name];
    prefix(`building ${name} for ${maxReplicas} replicas`);
    const workload = buildWorkload(
      spec,
      Array.from({ length: maxReplicas }, (_, r) => r + 1),
    );
    workloads.push(workloadEntry(workload, integration));
    if (measuresZeroRows && spec.hadronicKinematics !== undefined) {
      measureZeroRows(`${name} hadronic`, hadronicTables(workload.inputs));
    }
    let reference: { replicas: number; median: number } | undefined;
    for (const replicas of options.replicas) {
      const projected =
        reference === undefined
          ? 0
          : (((reference.median * replicas) / reference.replicas) *
              (options.warmup + options.steps)) /
            1000;
      const memory =
        selection.backend === 'wasm' ? wasmMemoryProblem(workload.inputs, replicas) : undefined;
      if (memory !== undefined) {
        prefix(`${name} R=${replicas}: skipped (${memory})`);
        configurations.push({ workload: name, replicas, status: 'skipped', reason: memory });
        continue;
      }
      if (projected > options.budgetSeconds) {
        const reason = `projected ${projected.toFixed(0)} s from R = ${reference?.replicas} (linear in R) exceeds the budget of ${options.budgetSeconds} s`;
        prefix(`${name} R=${replicas}: skipped (${reason})`);
        configurations.push({ workload: name, replicas, status: 'skipped', reason });
        continue;
      }
      const outcome = await measureConfiguration({
        workload,
        inputs: firstReplicas(workload.inputs, replicas),
        integration,
        options,
        ratios: options.ratioReplicas.includes(replicas) && options.ratioWorkloads.includes(name),
        log: prefix,
      });
      configurations.push(outcome.configuration);
      ratios.push(...outcome.ratios);
      if (outcome.configuration.status === 'measured') {
        reference = { replicas, median: outcome.configuration.stepMs.median };
      }
    }
  }
  configurations = withSpeedups(configurations);
  const heterogeneous: HeterogeneousResult[] = [];
  const heterogeneousWorkload = options.workloads.includes('nnpdf40')
    ? 'nnpdf40'
    : options.workloads.at(0);
  if (!options.skip.has('heterogeneous') && heterogeneousWorkload !== undefined) {
    heterogeneous.push(
      await measureHeterogeneous({
        spec: workloadSpecs[heterogeneousWorkload],
        replicas: maxReplicas,
        integration,
        options,
        log: prefix,
      }),
    );
  }
  const machine = machineInfo(loadStart);
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    createdAt: new Date().toISOString(),
    backend: {
      name: selection.backend,
      packageName: selection.packageName,
      runsOn: selection.runsOn,
    },
    machine: { ...machine, loadAverage: { start: loadStart, end: loadAverage() } },
    settings: {
      mode: options.mode,
      steps: options.steps,
      warmup: options.warmup,
      logEvery: options.logEvery,
      replicas: [...options.replicas],
      ratioReplicas: [...options.ratioReplicas],
      ratioWorkloads: [...options.ratioWorkloads],
      workloads: [...options.workloads],
      budgetSeconds: Number.isFinite(options.budgetSeconds) ? options.budgetSeconds : null,
      skip: [...options.skip],
    },
    workloads,
    setup,
    setupNnpdf40,
    sgemm,
    blasPeak,
    realTableZeroBlocks,
    genericZeroRows,
    configurations,
    ratios,
    heterogeneous,
    threadScaling: [],
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / 2 ** 20,
    totalSeconds: (performance.now() - start) / 1000,
  };
}
