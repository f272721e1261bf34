import * as tf from '@tensorflow/tfjs-core';
import type { Runcard } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';
import {
  Chi2Loss,
  logXFeatures,
  ObservableLayer,
  sameDisWindow,
  shareRotations,
  SharedRotationChi2s,
  StackedDisTables,
  SumRuleNormalisation,
  xColumn,
  type IntegrationGrid,
} from '@partonfit/layers';
import { FitObjective, lagrangeOptions, type TrainingParts } from '@partonfit/trainer';
import { timeRepeated } from '../measure/time-repeated.js';
import type { SampleSummary } from '../stats/summary.js';
import { networkFlops, observableFlops } from './component-flops.js';
import { COMPONENT_DESCRIPTIONS, type ComponentName } from './component-names.js';
import { forwardBackward, inputVariable, seededUniform } from './forward-backward.js';

/** The time of one component of the step, measured in isolation. */
export interface ComponentTiming {
  readonly name: ComponentName;
  readonly description: string;
  /** ms per call. */
  readonly stats: SampleSummary;
  /**
   * FLOPs of one call's matrix products (see `component-flops.ts`) for the components made of
   * them — network, DIS and hadronic observables — else null.
   */
  readonly flops: number | null;
}

/** What the component timings need: the fit, its integration grid and how often to repeat. */
export interface ComponentContext {
  readonly runcard: Runcard;
  readonly inputs: FitInputs;
  readonly integration: IntegrationGrid;
  /** Timed calls per component (after one untimed call). */
  readonly repeats: number;
}

async function timed(
  name: ComponentName,
  context: ComponentContext,
  run: () => void,
  flops: number | null = null,
): Promise<ComponentTiming> {
  return {
    name,
    description: COMPONENT_DESCRIPTIONS[name],
    stats: await timeRepeated(run, context.repeats),
    flops,
  };
}

/** The PDF's points: the fit's x-grid followed by the integration grid, as the model evaluates. */
function modelPoints(context: ComponentContext): Float64Array {
  const { inputs, integration } = context;
  const points = new Float64Array(inputs.xGrid.length + integration.x.length);
  points.set(inputs.xGrid);
  points.set(integration.x, inputs.xGrid.length);
  return points;
}

/**
 * Times the components that use the training parts themselves — the PDF network, the
 * preprocessing with the flavour rotation, the optimiser update and the stopping update — each
 * with fixed random inputs and upstream gradients. It moves the parts' weights and stopping state.
 */
export async function timeModelComponents(
  parts: TrainingParts,
  context: ComponentContext,
): Promise<ComponentTiming[]> {
  const { model, optimizer, stopping } = parts;
  const replicas = context.inputs.replicas.length;
  const points = modelPoints(context);
  const features = logXFeatures(points);
  const x = xColumn(points);
  const variables = model.trainableVariables();
  const fitted = model.networks[0]?.units.at(-1) ?? 8;
  const networkUpstream = seededUniform([replicas, points.length, fitted], -1, 1, 1);
  const networkOutput = inputVariable(seededUniform([replicas, points.length, fitted], -1, 1, 2));
  const rotatedUpstream = seededUniform([replicas, points.length, 14], -1, 1, 3);
  const gradients = variables.map((variable, i) =>
    tf.randomNormal(variable.shape, 0, 1e-3, 'float32', 10 + i),
  );
  const losses = {
    training: seededUniform([replicas], 1, 2, 4) as tf.Tensor1D,
    validation: seededUniform([replicas], 1, 2, 5) as tf.Tensor1D,
    validationChi2PerPoint: seededUniform([replicas], 1, 2, 6) as tf.Tensor1D,
    positivity: tf.zeros<tf.Rank.R1>([replicas]),
  };
  let epoch = 0;
  try {
    return [
      await timed(
        'network',
        context,
        () => {
          forwardBackward(() => model.networkOutput(features), networkUpstream, variables);
        },
        model.networks.reduce(
          (flops, network) =>
            flops +
            networkFlops(
              features.shape.at(-1) ?? 2,
              network.units,
              points.length,
              network.replicas,
            ),
          0,
        ),
      ),
      await timed('preprocessing', context, () => {
        forwardBackward(
          () =>
            model.rotation.apply(
              tf.mul(networkOutput, model.preprocessing.apply(x) as tf.Tensor),
            ) as tf.Tensor,
          rotatedUpstream,
          [networkOutput, ...variables],
        );
      }),
      await timed('optimiser', context, () => {
        tf.tidy(() => {
          optimizer.applyGradients(variables, gradients, { active: stopping.activeReplicas() });
          model.clipPreprocessing();
        });
      }),
      await timed('stopping', context, () => {
        stopping.update(epoch++, losses);
      }),
    ];
  } finally {
    tf.dispose([features, x, networkUpstream, networkOutput, rotatedUpstream, ...gradients]);
    tf.dispose(Object.values(losses));
  }
}

/** Whether the step stacks datasets and χ² here (`FitObjective`'s default: not on `cpu`). */
function stacksOnBackend(): boolean {
  return tf.getBackend() !== 'cpu';
}

/** Times the observables of the datasets of one kind, or returns nothing when there are none. */
async function timeObservables(
  kind: 'dis' | 'hadronic',
  context: ComponentContext,
  pdf: tf.Variable,
): Promise<ComponentTiming[]> {
  const datasets = context.inputs.datasets.filter(
    (dataset) => dataset.observable.operands[0][0].kind === kind,
  );
  if (datasets.length === 0) return [];
  // as the step computes them: DIS datasets on one x window stacked into one product
  const tables = datasets.flatMap((dataset) =>
    dataset.observable.operation === 'NULL' && dataset.observable.operands.length === 1
      ? dataset.observable.operands[0]
      : [],
  );
  const first = tables.at(0);
  const disTables = tables.filter((table) => table.kind === 'dis');
  const stacked =
    kind === 'dis' &&
    stacksOnBackend() &&
    disTables.length === tables.length &&
    tables.length === datasets.reduce((sum, d) => sum + d.observable.operands[0].length, 0) &&
    first?.kind === 'dis' &&
    disTables.every((table) => sameDisWindow(table, first))
      ? new StackedDisTables(disTables)
      : undefined;
  const layers =
    stacked === undefined
      ? datasets.map((dataset) => new ObservableLayer({ observable: dataset.observable }))
      : [];
  const ndata = datasets.reduce((sum, dataset) => sum + dataset.ndata, 0);
  const upstream = seededUniform([pdf.shape[0], ndata], -1, 1, 7);
  try {
    return [
      await timed(
        kind,
        context,
        () => {
          forwardBackward(
            () =>
              stacked?.apply(pdf as tf.Tensor3D) ??
              tf.concat(
                layers.map((layer) => layer.apply(pdf) as tf.Tensor2D),
                1,
              ),
            upstream,
            [pdf],
          );
        },
        observableFlops(datasets, kind, pdf.shape[0]),
      ),
    ];
  } finally {
    upstream.dispose();
    stacked?.dispose();
    for (const layer of layers) layer.dispose();
  }
}

/**
 * Times the components built from the fit inputs — sum rules, DIS observables, hadronic
 * observables, positivity and integrability penalties, training and validation χ² — each with its
 * own layers (copies of the FK tables: run it after the training parts are freed) and fixed random
 * inputs.
 */
export async function timeLayerComponents(context: ComponentContext): Promise<ComponentTiming[]> {
  const { runcard, inputs, integration } = context;
  const replicas = inputs.replicas.length;
  const nx = inputs.xGrid.length;
  const pdf = inputVariable(seededUniform([replicas, nx, 14], 0.1, 1, 8));
  const unnormalised = inputVariable(
    seededUniform([replicas, nx + integration.x.length, 14], 0.1, 1, 9),
  );
  const sumRules = new SumRuleNormalisation({
    mode: runcard.fitting.sum_rules,
    grid: integration,
    integrationOffset: nx,
  });
  // the positivity and integrability sets as the step's objective computes them
  const objective = new FitObjective(inputs, lagrangeOptions(runcard));
  const terms = objective.lagrangeTerms;
  const structures = [inputs.training, inputs.validation];
  const sharedChi2s =
    stacksOnBackend() && shareRotations(structures)
      ? new SharedRotationChi2s(
          structures.filter((structure) => structure.kind === 'eigenbasis'),
          inputs.pseudodata,
        )
      : undefined;
  const chi2s =
    sharedChi2s === undefined
      ? structures.map((structure) => new Chi2Loss({ structure, data: inputs.pseudodata }))
      : [];
  const predictions = inputVariable(
    tf.tidy(() =>
      tf.mul(
        tf.tensor2d(inputs.pseudodata, [replicas, inputs.ndata]),
        seededUniform([replicas, inputs.ndata], 0.9, 1.1, 10),
      ),
    ),
  );
  const upstream = {
    sumRules: seededUniform([replicas, nx, 14], -1, 1, 11),
    lagrange: seededUniform([replicas, Math.max(terms.length, 1)], 0, 1, 12),
    losses: tf.ones([replicas, 2]),
  };
  try {
    const timings = [
      await timed('sumRules', context, () => {
        forwardBackward(() => sumRules.apply(unnormalised) as tf.Tensor, upstream.sumRules, [
          unnormalised,
        ]);
      }),
      ...(await timeObservables('dis', context, pdf)),
      ...(await timeObservables('hadronic', context, pdf)),
    ];
    if (terms.length > 0) {
      timings.push(
        await timed('lagrange', context, () => {
          forwardBackward(
            () => {
              const sets = (['positivity', 'integrability'] as const).flatMap(
                (kind) => objective.penalties(kind, pdf as tf.Tensor3D) ?? [],
              );
              return sets.length === 1 ? sets[0] : tf.concat(sets, 1);
            },
            upstream.lagrange,
            [pdf],
          );
        }),
      );
    }
    timings.push(
      await timed('losses', context, () => {
        forwardBackward(
          () =>
            tf.stack(
              sharedChi2s?.apply(predictions as tf.Tensor2D) ??
                chi2s.map((chi2) => chi2.apply(predictions) as tf.Tensor1D),
              1,
            ),
          upstream.losses,
          [predictions],
        );
      }),
    );
    return timings;
  } finally {
    tf.dispose([pdf, unnormalised, predictions, ...Object.values(upstream)]);
    sumRules.dispose();
    objective.dispose();
    sharedChi2s?.dispose();
    for (const chi2 of chi2s) chi2.dispose();
  }
}
