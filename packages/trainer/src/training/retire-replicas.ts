import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@partonfit/core';
import { selectInputRows, type FitInputs } from '@partonfit/fktables';
import type {
  CheckpointArray,
  TrainingCheckpoint,
  TrainingHistoryEntry,
} from '../checkpoint/training-checkpoint.js';
import { LAGRANGE_UPDATE_EVERY } from '../lagrange/lagrange-schedule.js';
import { networkGroupName, networkWeightOf, type ReplicaPdfModel } from '../model/pdf-model.js';
import { STOPPING_STATE_KEYS, type StoppingSnapshot } from '../stopping/replica-stopping.js';
import { runEpochs, type LoopResult, type LoopSettings } from './run-epochs.js';
import {
  captureCheckpoint,
  disposeTrainingParts,
  restoreCheckpoint,
  type TrainingParts,
} from './training-state.js';

/** A network weight's name, e.g. `network_1/kernel_2` or `network/bias_0`. */

function size(shape: readonly number[]): number {
  return shape.reduce((product, axis) => product * axis, 1);
}

/** The network group holding `row` and the row's member index in it. */
function memberOf(model: ReplicaPdfModel, row: number): { group: number; member: number } {
  const group = model.methodology.networks.findIndex(({ start, end }) => row >= start && row < end);
  if (group < 0) {
    throw new InvalidArgumentError({ argument: 'row', problem: `row ${row} is in no network` });
  }
  return { group, member: row - (model.methodology.networks[group]?.start ?? 0) };
}

/**
 * Where row `row`'s block of a target weight comes from in the source model: the source weight's
 * name and member index, or undefined where the target row has no weight of its own there (a
 * layer it passes through).
 */
function sourceBlock(
  name: string,
  target: ReplicaPdfModel,
  targetRow: number,
  source: ReplicaPdfModel,
  sourceRow: number,
): { name: string; member: number } | undefined {
  const weight = networkWeightOf(name);
  if (weight === undefined) return { name, member: sourceRow };
  const { kind } = weight;
  const to = memberOf(target, targetRow);
  const own = target.methodology.networks[to.group].memberLayers[weight.layer][to.member];
  if (own < 0) return undefined;
  const from = memberOf(source, sourceRow);
  const layer = source.methodology.networks[from.group].memberLayers.findIndex(
    (members) => members[from.member] === own,
  );
  const prefix = networkGroupName(from.group, source.networks.length === 1);
  return { name: `${prefix}/${kind}_${layer}`, member: from.member };
}

/** Named arrays, or the named arrays that hold each target row's values. */
type RowArrays =
  | ReadonlyMap<string, CheckpointArray>
  | ((targetRow: number) => ReadonlyMap<string, CheckpointArray> | undefined);

/**
 * Named `(rows, …)` arrays of one model (weights, best weights or optimiser statistics) laid out
 * for another model of other rows: target row t takes source row `sourceRows[t]`'s values (−1:
 * keeps `base`'s, zeros without it). A network weight's member block is copied into the target
 * group's padded shape, layer by the member's own layer, so the two models may group and pad
 * their networks differently.
 *
 * @param arrays - the source's arrays, or for each target row the source arrays holding it
 * @param names - the target's weights to produce, with their shapes
 */
export function moveRows(
  arrays: RowArrays,
  source: ReplicaPdfModel,
  target: ReplicaPdfModel,
  sourceRows: readonly number[],
  names: readonly { readonly name: string; readonly shape: readonly number[] }[],
  base?: ReadonlyMap<string, CheckpointArray>,
): Map<string, CheckpointArray> {
  const targetRows = (name: string): [number, number] => {
    const weight = networkWeightOf(name);
    if (weight === undefined) return [0, target.replicas];
    const group = target.methodology.networks[weight.group];
    return [group.start, group.end];
  };
  return new Map(
    names.map(({ name, shape }) => {
      const data = Float32Array.from(base?.get(name)?.data ?? new Float32Array(size(shape)));
      const [start, end] = targetRows(name);
      const [, rows = 1, columns = 1] = shape.length === 3 ? shape : [0, size(shape.slice(1)), 1];
      for (let row = start; row < end; row++) {
        const from = sourceRows[row] ?? -1;
        if (from < 0) continue;
        const block = sourceBlock(name, target, row, source, from);
        const holding = typeof arrays === 'function' ? arrays(row) : arrays;
        const array = block === undefined ? undefined : holding?.get(block.name);
        if (block === undefined || array === undefined) continue;
        const [, fromRows = 1, fromColumns = 1] =
          array.shape.length === 3 ? array.shape : [0, size(array.shape.slice(1)), 1];
        const member = row - start;
        for (let i = 0; i < Math.min(rows, fromRows); i++) {
          const at = (member * rows + i) * columns;
          const offset = (block.member * fromRows + i) * fromColumns;
          data.set(array.data.subarray(offset, offset + Math.min(columns, fromColumns)), at);
        }
      }
      return [name, { shape: [...shape], data }];
    }),
  );
}

function shapesOf(model: ReplicaPdfModel, trainableOnly: boolean) {
  const trainable = new Set(model.trainableVariables());
  return model
    .namedWeights()
    .filter(({ variable }) => !trainableOnly || trainable.has(variable))
    .map(({ name, variable }) => ({ name, shape: variable.shape }));
}

/** The values of `rows` of per-replica arrays (a single shared value is kept as it is). */
function pickRows(values: Float32Array, rows: readonly number[], replicas: number): Float32Array {
  return values.length === replicas ? Float32Array.from(rows, (row) => values[row] ?? 0) : values;
}

/** Per-replica multipliers of some rows: one value when they agree (the rows' schedules do). */
function pickMultipliers(
  values: Float32Array,
  rows: readonly number[],
  replicas: number,
): Float32Array {
  const picked = pickRows(values, rows, replicas);
  return picked.every((value) => value === picked[0]) ? picked.subarray(0, 1) : picked;
}

/**
 * The optimiser statistics of `target` from those of `source`: each target row's statistics from
 * its source row's, wherever each optimiser keeps them (their kinds may differ: a model of fewer
 * rows may have fewer optimisers).
 */
function moveStatistics(
  slots: TrainingCheckpoint['optimizer']['slots'],
  source: TrainingParts,
  target: TrainingParts,
  rows: readonly number[],
): Map<string, ReadonlyMap<string, CheckpointArray>> {
  if (slots.size === 0) return new Map();
  const trainable = shapesOf(target.model, true);
  return new Map(
    target.optimizer.slotNames.map((slot) => {
      const arraysOf = (row: number) => {
        const index = target.optimizer.rowSlotNames(row).indexOf(slot);
        if (index < 0) return undefined;
        return slots.get(source.optimizer.rowSlotNames(rows[row])[index]);
      };
      return [slot, moveRows(arraysOf, source.model, target.model, rows, trainable)];
    }),
  );
}

/** A checkpoint of `source` narrowed to its rows `rows`, for `target` (built for those rows). */
function keepRows(
  checkpoint: TrainingCheckpoint,
  sourceParts: TrainingParts,
  targetParts: TrainingParts,
  rows: readonly number[],
): TrainingCheckpoint {
  const { model: source } = sourceParts;
  const { model: target } = targetParts;
  const weights = shapesOf(target, false);
  const pick = (values: Float32Array) => pickRows(values, rows, source.replicas);
  const { stopping, optimizer } = checkpoint;
  return {
    ...checkpoint,
    weights: moveRows(checkpoint.weights, source, target, rows, weights),
    optimizer: {
      ...optimizer,
      name: targetParts.optimizer.name,
      slots: moveStatistics(optimizer.slots, sourceParts, targetParts, rows),
    },
    stopping: {
      ...(Object.fromEntries(
        STOPPING_STATE_KEYS.map((key) => [key, pick(stopping[key])]),
      ) as Record<(typeof STOPPING_STATE_KEYS)[number], Float32Array>),
      bestWeights: moveRows(stopping.bestWeights, source, target, rows, weights),
    },
    multipliers: new Map(
      [...checkpoint.multipliers].map(([name, values]) => [
        name,
        pickMultipliers(values, rows, source.replicas),
      ]),
    ),
  };
}

/** Builds the parts of a model of some of the fit's rows (their inputs given). */
export type BuildRows = (rows: readonly number[], inputs: FitInputs) => TrainingParts;

/** The rows whose fit ended at a read-back, the rows going on, and the ended rows alone. */
export interface RowsEnding {
  /** The rows (of the whole model) whose fit ended at this read-back. */
  readonly rows: readonly number[];
  /** The rows (of the whole model) still training. */
  readonly training: readonly number[];
  /** Epochs done. */
  readonly epoch: number;
  /** Builds a model of `rows` alone holding their state now, with their inputs; dispose it. */
  readonly alone: () => { readonly parts: TrainingParts; readonly inputs: FitInputs };
}

/**
 * Which rows still training stop too when some rows' fit ends (rows of the whole model): a
 * scan stops a trial's later folds once one fold ends above its threshold.
 */
export type StopAlongside = (ending: RowsEnding) => Promise<readonly number[]>;

type StoppingArrays = Record<(typeof STOPPING_STATE_KEYS)[number], Float32Array>;

/** Every row's state at the end of its fit, in the layout of the model of every row. */
class EndedReplicas {
  private readonly stopping: StoppingArrays;
  private readonly weights: { readonly name: string; readonly shape: readonly number[] }[];
  private bestWeights = new Map<string, CheckpointArray>();
  /** The last weights too: a replica that never had a best epoch keeps them. */
  private lastWeights = new Map<string, CheckpointArray>();

  constructor(private readonly full: ReplicaPdfModel) {
    this.stopping = Object.fromEntries(
      STOPPING_STATE_KEYS.map((key) => [key, new Float32Array(full.replicas)]),
    ) as StoppingArrays;
    this.weights = shapesOf(full, false);
  }

  /**
   * Records the rows `ending` of a model of the rows `live` (of the full model) from its
   * checkpoint; with `stoppedAt`, as stopped after that many epochs (stopped by the caller).
   */
  record(
    checkpoint: TrainingCheckpoint,
    model: ReplicaPdfModel,
    live: readonly number[],
    ending: readonly number[],
    stoppedAt?: number,
  ): void {
    const sourceRows = new Array<number>(this.full.replicas).fill(-1);
    for (const k of ending) {
      const row = live[k] ?? 0;
      sourceRows[row] = k;
      for (const key of STOPPING_STATE_KEYS) {
        this.stopping[key][row] = checkpoint.stopping[key][k] ?? 0;
      }
      if (stoppedAt !== undefined) this.stopping.stopEpoch[row] = stoppedAt - 1;
    }
    const move = (arrays: ReadonlyMap<string, CheckpointArray>, base: typeof arrays) =>
      moveRows(arrays, model, this.full, sourceRows, this.weights, base);
    this.bestWeights = move(checkpoint.stopping.bestWeights, this.bestWeights);
    this.lastWeights = move(checkpoint.weights, this.lastWeights);
  }

  /** Puts every row's last weights into the full model and its final state into `stopping`. */
  restoreInto(parts: TrainingParts): StoppingSnapshot {
    const tensorOf = (array: CheckpointArray | undefined) =>
      tf.tensor(array?.data ?? [], array?.shape as number[], 'float32');
    const named = parts.model.namedWeights();
    tf.tidy(() => {
      for (const { name, variable } of named) variable.assign(tensorOf(this.lastWeights.get(name)));
    });
    const state = {
      ...(Object.fromEntries(
        STOPPING_STATE_KEYS.map((key) => [key, tf.tensor1d(this.stopping[key], 'float32')]),
      ) as Record<(typeof STOPPING_STATE_KEYS)[number], tf.Tensor1D>),
      bestWeights: named.map(({ name }) => tensorOf(this.bestWeights.get(name))),
    };
    try {
      parts.stopping.restore(state);
    } finally {
      tf.dispose([...STOPPING_STATE_KEYS.map((key) => state[key]), ...state.bestWeights]);
    }
    return this.snapshot();
  }

  /** The stopping state of every row: the ended rows' final one, the rows `live`'s from `now`. */
  snapshot(now?: StoppingSnapshot, live: readonly number[] = []): StoppingSnapshot {
    const { bestValidation, bestEpoch, stopEpoch, failed } = this.stopping;
    const merged = {
      bestValidation: Float32Array.from(bestValidation),
      bestEpoch: Int32Array.from(bestEpoch),
      stopEpoch: Int32Array.from(stopEpoch),
      failed: Uint8Array.from(failed),
    };
    live.forEach((row, k) => {
      merged.bestValidation[row] = now?.bestValidation[k] ?? 0;
      merged.bestEpoch[row] = now?.bestEpoch[k] ?? 0;
      merged.stopEpoch[row] = now?.stopEpoch[k] ?? 0;
      merged.failed[row] = now?.failed[k] ?? 0;
    });
    return merged;
  }
}

/** Values of the rows `live` as values of every row, NaN for the others. */
function widenRows(values: Float32Array, live: readonly number[], replicas: number): Float32Array {
  const widened = new Float32Array(replicas).fill(Number.NaN);
  live.forEach((row, k) => {
    widened[row] = values[k] ?? Number.NaN;
  });
  return widened;
}

/** A read-back of the rows `live` as one of every row, NaN for the others. */
function widen(
  entry: TrainingHistoryEntry,
  live: readonly number[],
  replicas: number,
): TrainingHistoryEntry {
  return {
    epoch: entry.epoch,
    training: widenRows(entry.training, live, replicas),
    validation: widenRows(entry.validation, live, replicas),
  };
}

/**
 * A model of the rows `keep` of the model `parts` (of the whole model's rows `live`) holding
 * their state at `checkpoint`, with their inputs.
 */
function partsOfRows(
  checkpoint: TrainingCheckpoint,
  parts: TrainingParts,
  inputs: FitInputs,
  keep: readonly number[],
  live: readonly number[],
  build: BuildRows,
): { parts: TrainingParts; inputs: FitInputs } {
  const rowInputs = selectInputRows(
    inputs,
    keep,
    keep.map((k) => inputs.replicas[k] ?? 0),
  );
  const next = build(
    keep.map((k) => live[k] ?? 0),
    rowInputs,
  );
  try {
    restoreCheckpoint(
      'the state of the replicas kept',
      keepRows(checkpoint, parts, next, keep),
      next,
    );
  } catch (error) {
    disposeTrainingParts(next);
    throw error;
  }
  return { parts: next, inputs: rowInputs };
}

/**
 * The training loop of {@link runEpochs}, taking the replicas whose fit has ended out of the model
 * at each read-back: the others continue in a model of their rows only, their weights, optimiser
 * statistics, stopping state and multipliers carried over, so that a step costs what the
 * replicas still training cost. Every row's results are those of the whole model: at the end
 * `full`'s model holds every row's last weights, its stopping every row's final state and best
 * weights (restore them with `restoreBestWeights`) and its objective the multipliers of the last
 * epoch.
 *
 * @param full - the parts of every row, as built for the fit; kept (the caller disposes them)
 * @param build - builds the parts of some rows
 * @param stopAlongside - asked at each retirement which rows still training stop too: they
 *   are retired with the others, their state that of this epoch, their stop epoch this one
 * @returns the loop's result for every row; history entries after a row's end hold NaN for it
 */
export async function runRetiringReplicas(
  full: TrainingParts,
  inputs: FitInputs,
  settings: LoopSettings,
  build: BuildRows,
  stopAlongside?: StopAlongside,
): Promise<LoopResult> {
  const replicas = inputs.replicas.length;
  const ended = new EndedReplicas(full.model);
  const history: TrainingHistoryEntry[] = [];
  let live = Array.from({ length: replicas }, (_, row) => row);
  let parts = full;
  let phaseInputs = inputs;
  let fullEpochs: number | undefined;
  let epoch = 0;
  const { onProgress } = settings;
  // progress of every row, as the whole model would report it
  const progressOfAll: LoopSettings['onProgress'] =
    onProgress &&
    ((progress) => {
      onProgress({
        ...progress,
        trainingChi2PerPoint: widenRows(progress.trainingChi2PerPoint, live, replicas),
        validationChi2PerPoint: widenRows(progress.validationChi2PerPoint, live, replicas),
        stopping: ended.snapshot(progress.stopping, live),
      });
    });
  try {
    for (;;) {
      const loop = await runEpochs(
        parts,
        phaseInputs,
        { ...settings, onProgress: progressOfAll, retire: true },
        { epoch, seconds: 0, history: [] },
      );
      history.push(...loop.history.map((entry) => widen(entry, live, replicas)));
      const checkpoint = await captureCheckpoint(parts, settings.fingerprint, {
        epoch: loop.epochsRun,
        seconds: 0,
        history: [],
      });
      ended.record(checkpoint, parts.model, live, loop.ended ?? live.map((_, k) => k));
      fullEpochs ??= loop.epochsRun;
      epoch = loop.epochsRun;
      const stopped = new Set(loop.ended);
      if (loop.ended !== undefined && stopAlongside !== undefined) {
        const ending = loop.ended;
        const going = live.flatMap((_, k) => (stopped.has(k) ? [] : [k]));
        const also = new Set(
          await stopAlongside({
            rows: ending.map((k) => live[k] ?? 0),
            training: going.map((k) => live[k] ?? 0),
            epoch,
            alone: () => partsOfRows(checkpoint, parts, phaseInputs, ending, live, build),
          }),
        );
        const alongside = going.filter((k) => also.has(live[k] ?? -1));
        if (alongside.length > 0) ended.record(checkpoint, parts.model, live, alongside, epoch);
        for (const k of alongside) stopped.add(k);
      }
      const keep = live.flatMap((_, k) => (stopped.has(k) ? [] : [k]));
      if (loop.ended === undefined || keep.length === 0) {
        // the full objective stopped at the first retirement: its λ grow as they would have
        const updates =
          Math.floor(epoch / LAGRANGE_UPDATE_EVERY) -
          Math.floor(fullEpochs / LAGRANGE_UPDATE_EVERY);
        for (let k = 0; k < updates; k++) full.objective.updateMultipliers();
        const snapshot = ended.restoreInto(full);
        return { epochsRun: epoch, snapshot, history, seconds: loop.seconds, ended: undefined };
      }
      const next = partsOfRows(checkpoint, parts, phaseInputs, keep, live, build);
      if (parts !== full) disposeTrainingParts(parts);
      parts = next.parts;
      phaseInputs = next.inputs;
      live = keep.map((k) => live[k] ?? 0);
    }
  } finally {
    if (parts !== full) disposeTrainingParts(parts);
  }
}
