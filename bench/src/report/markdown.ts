import { COMPONENT_NAMES } from '../components/component-names.js';
import type { SampleSummary } from '../stats/summary.js';
import {
  measuredConfigurations,
  type BenchResult,
  type MeasuredConfiguration,
} from './result-schema.js';

/** A number with 3 significant figures (no exponent), for tables. */
export function formatNumber(value: number): string {
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return Math.round(value).toString();
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

function spread(stats: SampleSummary): string {
  return `${formatNumber(stats.median)} (${formatNumber(stats.p10)}–${formatNumber(stats.p90)})`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '_None measured._';
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function stepTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) =>
    result.configurations.map((c) => {
      const key = [result.backend.name, c.workload, String(c.replicas)];
      if (c.status === 'skipped') return [...key, `skipped: ${c.reason}`, '', '', '', '', '', ''];
      return [
        ...key,
        spread(c.stepMs),
        formatNumber(c.usPerReplicaStep),
        c.speedup === null ? '—' : formatNumber(c.speedup),
        formatNumber(c.syncs.per100Steps),
        c.tensors.flat ? 'yes' : 'NO',
        formatNumber(c.firstStepMs),
        formatNumber(c.rssPeakMb),
      ];
    }),
  );
  return table(
    [
      'backend',
      'workload',
      'R',
      'ms/step median (p10–p90)',
      'µs per replica-step',
      't(R)/(R·t(1))',
      'host syncs per 100 steps',
      'tensors flat',
      'first step ms',
      'peak RSS MB',
    ],
    rows,
  );
}

function componentTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) =>
    measuredConfigurations(result)
      .filter((c) => c.components.length > 0)
      .map((c) => {
        const byName = new Map(c.components.map((component) => [component.name, component]));
        const largest = [...c.components].sort((a, b) => b.stats.median - a.stats.median)[0];
        return [
          result.backend.name,
          c.workload,
          String(c.replicas),
          ...COMPONENT_NAMES.map((name) => {
            const component = byName.get(name);
            return component === undefined ? '—' : formatNumber(component.stats.median);
          }),
          c.componentSumMs === null ? '—' : formatNumber(c.componentSumMs),
          formatNumber(c.stepMs.median),
          c.unaccountedMs === null ? '—' : formatNumber(c.unaccountedMs),
          `${largest.name} (${Math.round((100 * largest.stats.median) / c.stepMs.median)} %)`,
        ];
      }),
  );
  return table(
    ['backend', 'workload', 'R', ...COMPONENT_NAMES, 'Σ', 'step', 'unaccounted', 'largest'],
    rows,
  );
}

/**
 * The components made of matrix products (network, DIS, hadronic) against the same run's
 * `(n, n) @ (n, n)` product through `tf.matMul` and, on native, the BLAS's raw sgemm (one
 * product per thread, called directly): GFLOP/s = FLOPs / median, and its share of each.
 */
function throughputTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) =>
    measuredConfigurations(result).flatMap((c) =>
      c.components
        .filter((component) => component.flops !== null)
        .map((component) => {
          const gflops = (component.flops ?? 0) / component.stats.median / 1e6;
          const peak = result.blasPeak;
          return [
            result.backend.name,
            `${formatNumber(result.sgemm.gflops)} (n = ${result.sgemm.size})`,
            peak === null ? '–' : `${formatNumber(peak.gflops)} (${peak.threads} × ${peak.size})`,
            c.workload,
            String(c.replicas),
            component.name,
            formatNumber((component.flops ?? 0) / 1e9),
            formatNumber(component.stats.median),
            formatNumber(gflops),
            `${formatNumber((100 * gflops) / result.sgemm.gflops)} %`,
            peak === null ? '–' : `${formatNumber((100 * gflops) / peak.gflops)} %`,
          ];
        }),
    ),
  );
  return table(
    [
      'backend',
      'tf.matMul GFLOP/s',
      'raw sgemm GFLOP/s',
      'workload',
      'R',
      'component',
      'GFLOP per call',
      'ms',
      'GFLOP/s',
      'of tf.matMul',
      'of raw sgemm',
    ],
    rows,
  );
}

/**
 * The gain of skipping zero blocks: the hadronic component and the step of `nnpdf40-sparse`
 * against its dense twin `nnpdf40`, the same arithmetic on kernels that skip nothing.
 */
function zeroBlockTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) => {
    const configurations = measuredConfigurations(result);
    const hadronic = (c: MeasuredConfiguration) =>
      c.components.find((component) => component.name === 'hadronic')?.stats.median;
    return configurations
      .filter((c) => c.workload === 'nnpdf40-sparse')
      .flatMap((sparse) => {
        const dense = configurations.find(
          (c) => c.workload === 'nnpdf40' && c.replicas === sparse.replicas,
        );
        const [denseMs, sparseMs] = [dense && hadronic(dense), hadronic(sparse)];
        if (dense === undefined || denseMs === undefined || sparseMs === undefined) return [];
        return [
          [
            result.backend.name,
            String(sparse.replicas),
            formatNumber(denseMs),
            formatNumber(sparseMs),
            `${formatNumber(denseMs / sparseMs)}×`,
            formatNumber(dense.stepMs.median),
            formatNumber(sparse.stepMs.median),
          ],
        ];
      });
  });
  return table(
    [
      'backend',
      'R',
      'hadronic ms, nnpdf40 (dense)',
      'hadronic ms, nnpdf40-sparse',
      'gain',
      'step ms, nnpdf40',
      'step ms, nnpdf40-sparse',
    ],
    rows,
  );
}

/** The contraction on each real hadronic table as it is against the same table with no zeros. */
function realTableZeroBlockTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) =>
    result.realTableZeroBlocks.map((entry) => [
      result.backend.name,
      entry.table,
      `${entry.channels} × ${entry.x} × ${entry.x} × ${entry.data}`,
      `${formatNumber(100 * entry.zeroFraction)} %`,
      String(entry.replicas),
      formatNumber(entry.denseMs),
      formatNumber(entry.sparseMs),
      `${formatNumber(entry.denseMs / entry.sparseMs)}×`,
    ]),
  );
  return table(
    [
      'backend',
      'table',
      'channel × x1 × x2 × data',
      'zeros',
      'R',
      'ms, zeros filled',
      'ms, as it is',
      'gain',
    ],
    rows,
  );
}

/** The generic path with the all-zero rows of hadronic tables dropped against dense. */
function genericZeroRowTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) =>
    result.genericZeroRows.map((entry) => [
      result.backend.name,
      entry.name,
      String(entry.tables),
      formatNumber(entry.rows),
      `${formatNumber(100 * entry.zeroRowShare)} %`,
      String(entry.replicas),
      `${formatNumber(entry.denseMs)} (${formatNumber(entry.denseCpuMs)})`,
      `${formatNumber(entry.compactMs)} (${formatNumber(entry.compactCpuMs)})`,
      `${formatNumber(entry.denseMs / entry.compactMs)}×`,
    ]),
  );
  return table(
    [
      'backend',
      'tables',
      'count',
      'rows',
      'zero rows',
      'R',
      'dense ms (CPU ms)',
      'zero rows dropped ms (CPU ms)',
      'gain',
    ],
    rows,
  );
}

/** Median step of every backend against wasm's, for the configurations both measured. */
function wasmSpeedupTable(results: readonly BenchResult[]): string {
  const wasm = results.find((result) => result.backend.name === 'wasm');
  if (wasm === undefined) return '_No wasm result._';
  const wasmSteps = new Map(
    measuredConfigurations(wasm).map((c) => [`${c.workload}/${c.replicas}`, c]),
  );
  const rows = results
    .filter((result) => result !== wasm)
    .flatMap((result) =>
      measuredConfigurations(result).flatMap((c) => {
        const reference = wasmSteps.get(`${c.workload}/${c.replicas}`);
        if (reference === undefined) return [];
        return [
          [
            c.workload,
            String(c.replicas),
            formatNumber(reference.stepMs.median),
            result.backend.name,
            formatNumber(c.stepMs.median),
            `**${formatNumber(reference.stepMs.median / c.stepMs.median)}×**`,
          ],
        ];
      }),
    );
  return table(['workload', 'R', 'wasm ms/step', 'backend', 'ms/step', 'wasm / backend'], rows);
}

/**
 * The native step at every thread count of `--threads`: median (p10–p90), speed-up over 1 thread
 * and efficiency (speed-up / threads).
 */
export function threadScalingTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) =>
    result.threadScaling.map((row) => [
      result.backend.name,
      row.workload,
      String(row.replicas),
      String(row.threads),
      spread(row.stepMs),
      row.speedup === null ? '—' : `${formatNumber(row.speedup)}×`,
      row.efficiency === null ? '—' : `${Math.round(100 * row.efficiency)} %`,
    ]),
  );
  return table(
    [
      'backend',
      'workload',
      'R',
      'threads',
      'ms/step median (p10–p90)',
      'speed-up over 1 thread',
      'efficiency',
    ],
    rows,
  );
}

function ratioTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) =>
    result.ratios.map((ratio) => {
      const key = [result.backend.name, ratio.workload, String(ratio.replicas), ratio.name];
      if (ratio.status === 'skipped') return [...key, `skipped: ${ratio.reason}`, '', '', ''];
      return [
        ...key,
        formatNumber(ratio.seedMs.median),
        formatNumber(ratio.naiveMs.median),
        `**${formatNumber(ratio.ratio)}×**`,
        formatNumber(ratio.naiveSyncsPer100Steps),
      ];
    }),
  );
  return table(
    [
      'backend',
      'workload',
      'R',
      'naive variant',
      'seed ms/step',
      'naive ms/step',
      'naive / seed',
      'naive syncs per 100 steps',
    ],
    rows,
  );
}

function heterogeneousTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) =>
    result.heterogeneous.map((entry) => {
      const key = [result.backend.name, entry.workload, String(entry.replicas)];
      if (entry.status === 'skipped') return [...key, `skipped: ${entry.reason}`, '', '', '', ''];
      return [
        ...key,
        `${entry.networks.join(', ')} (${entry.optimizers.join(', ')})`,
        formatNumber(entry.homogeneousMs.median),
        formatNumber(entry.heterogeneousMs.median),
        `**${formatNumber(entry.ratio)}×**`,
        `${entry.heterogeneousKernels} vs ${entry.homogeneousKernels}`,
      ];
    }),
  );
  return table(
    [
      'backend',
      'workload',
      'R',
      'networks (optimisers)',
      'homogeneous ms/step',
      'heterogeneous ms/step',
      'heterogeneous / homogeneous',
      'kernels per step',
    ],
    rows,
  );
}

function kernelLines(results: readonly BenchResult[]): string {
  const lines = results.flatMap((result) =>
    measuredConfigurations(result)
      .filter((c) => c.profile !== null)
      .map((c) => {
        const kernels = (c.profile?.kernels ?? [])
          .slice(0, 5)
          .map((kernel) => `${kernel.kernel} ${formatNumber(kernel.ms)} ms ×${kernel.calls}`)
          .join(', ');
        const calls = c.profile?.kernelCalls;
        const count = calls === undefined ? '' : ` (${formatNumber(calls)} kernels per step)`;
        return `- ${result.backend.name}, ${c.workload}, R = ${c.replicas}${count}: ${kernels}`;
      }),
  );
  return lines.length === 0 ? '_None measured._' : lines.join('\n');
}

function setupTable(results: readonly BenchResult[]): string {
  const rows = results.map((result) => {
    const setup = result.setup;
    if (setup.status === 'skipped')
      return [result.backend.name, `skipped: ${setup.reason}`, '', '', '', ''];
    return [
      result.backend.name,
      setup.runcard,
      String(setup.replicas),
      String(setup.ndata),
      `${formatNumber(setup.coldSeconds)} (${formatNumber(setup.coldCpuSeconds)})`,
      `${formatNumber(setup.cachedSeconds)} (${formatNumber(setup.cachedCpuSeconds)})${setup.cacheHit ? '' : ' (NOT from the cache)'}`,
    ];
  });
  return table(
    ['backend', 'runcard', 'R', 'points', 'cold s (CPU s)', 'HDF5 cache s (CPU s)'],
    rows,
  );
}

function setupNnpdf40Table(results: readonly BenchResult[]): string {
  const rows = results.map((result) => {
    const setup = result.setupNnpdf40;
    if (setup.status === 'skipped')
      return [result.backend.name, `skipped: ${setup.reason}`, '', '', '', '', '', ''];
    return [
      result.backend.name,
      setup.workload,
      String(setup.replicas),
      String(setup.ndata),
      String(setup.tables),
      formatNumber(setup.megabytes),
      `${formatNumber(setup.coldSeconds)} (${formatNumber(setup.coldCpuSeconds)})`,
      `${formatNumber(setup.cachedSeconds)} (${formatNumber(setup.cachedCpuSeconds)})${setup.cacheHit ? '' : ' (NOT from the cache)'}`,
    ];
  });
  return table(
    [
      'backend',
      'workload',
      'R',
      'points',
      'tables',
      'MB read',
      'cold s (CPU s)',
      'cached s (CPU s)',
    ],
    rows,
  );
}

function crossCheckTable(results: readonly BenchResult[]): string {
  const rows = results.flatMap((result) =>
    measuredConfigurations(result)
      .filter((c) => c.crossCheck !== null)
      .map((c) => [
        result.backend.name,
        c.workload,
        String(c.replicas),
        formatNumber(c.stepMs.mean),
        formatNumber(c.crossCheck?.msPerStep ?? 0),
        String(c.crossCheck?.epochs ?? 0),
        String(c.crossCheck?.hostReads ?? 0),
      ]),
  );
  return table(
    [
      'backend',
      'workload',
      'R',
      'bench loop mean ms/step',
      'trainReplicas ms/epoch (2nd half)',
      'epochs',
      'trainReplicas host reads',
    ],
    rows,
  );
}

/**
 * The markdown report of one day's results (one per backend): tables of every measurement.
 *
 * @param date - the date in the title (default: the first result's `createdAt` day)
 */
export function resultsMarkdown(results: readonly BenchResult[], date?: string): string {
  const first = results.at(0);
  if (first === undefined) return '# partonfit benchmark\n\nNo results.\n';
  const { machine, settings } = first;
  const day = date ?? first.createdAt.slice(0, 10);
  const budget = settings.budgetSeconds === null ? 'none' : `${settings.budgetSeconds} s`;
  const sections = [
    `# partonfit benchmark, ${day} (${settings.mode})`,
    [
      `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${formatNumber(machine.memoryGb)} GB, ${machine.platform} ${machine.osRelease} ${machine.arch}; Node ${machine.node}, tfjs ${machine.tfjs}${machine.commit === null ? '' : `, commit ${machine.commit}`}.`,
      `Load average (1 min) at start / end: ${results.map((result) => `${result.backend.name} ${formatNumber(result.machine.loadAverage.start[0])} / ${formatNumber(result.machine.loadAverage.end[0])}`).join(', ')}.`,
      `Settings: ${settings.steps} measured steps after ${settings.warmup} warm-up, read-back every ${settings.logEvery} steps, budget per measurement ${budget}${settings.skip.length === 0 ? '' : `, skipped: ${settings.skip.join(', ')}`}.`,
      ...first.workloads.map(
        (workload) =>
          `Workload \`${workload.name}\`: ${workload.description}; ${workload.ndata} data points in ${workload.datasets} datasets, ${workload.blocks.length} covariance blocks (largest ${Math.max(...workload.blocks)}), ${workload.integrationPoints}-point integration grid, network ${workload.network}, ${workload.split}.`,
      ),
    ].join('\n\n'),
    `## Training step\n\n${stepTable(results)}`,
    `## Step components, median ms (each forward + backward, in isolation)\n\n${componentTable(results)}`,
    `## Matrix products against the backend's sgemm and the BLAS's raw peak (same run)\n\n${throughputTable(results)}`,
    `## Zero blocks skipped: nnpdf40-sparse against its dense twin\n\n${zeroBlockTable(results)}`,
    `## Zero blocks skipped on real tables (forward + backward, native)\n\n${realTableZeroBlockTable(results)}`,
    `## Zero rows dropped on the generic path (forward + backward, wasm and cpu)\n\n${genericZeroRowTable(results)}`,
    `## Speed-up over wasm (median step)\n\n${wasmSpeedupTable(results)}`,
    `## Threads: the native step at each size of the addon's pool (--threads, one process each)\n\n${threadScalingTable(results)}`,
    `## The seeds' factors: naive variant / seed step, same run\n\n${ratioTable(results)}`,
    `## Replicas with their own hyperparameters: 25-20-8, 35-25-8, 20-15-8, 30-30-8 under Nadam and Adam against 25-20-8 Nadam, same run\n\n${heterogeneousTable(results)}`,
    `## Heaviest kernels of one step (tf.profile)\n\n${kernelLines(results)}`,
    `## Set-up: prepareFitInputs cold and from the HDF5 cache\n\n${setupTable(results)}`,
    `## Set-up at NNPDF4.0 size: prepareFitInputs on a synthetic theory folder read from files\n\n${setupNnpdf40Table(results)}`,
    `## trainReplicas cross-check\n\n${crossCheckTable(results)}`,
  ];
  return `${sections.join('\n\n')}\n`;
}
