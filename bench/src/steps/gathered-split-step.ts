import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, type EigenbasisChi2 } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';
import { ConstantMatrix, withCustomGrad } from '@partonfit/layers';
import {
  disposeStepLosses,
  lagrangePenalties,
  trainingStep,
  type FitLosses,
  type TrainingParts,
} from '@partonfit/trainer';
import type { BenchStep } from './bench-step.js';
import { seedStep } from './seed-step.js';

/** Where each replica's modes of one structure sit in the flattened `(replicas · modes)` axis. */
export interface ModeSelection {
  /** Flat indices r · modes + k of the selected modes, replica by replica, (replicas · selected). */
  readonly indices: Int32Array;
  /** 1/λ of each selected mode, in the order of `indices`. */
  readonly inverseEigenvalues: Float32Array;
  /** Modes selected per replica (the same for every replica of a diagonal-basis split). */
  readonly perReplica: number;
}

/**
 * The modes a diagonal-basis χ² structure counts for each replica (weight ≠ 0), as the indices a
 * boolean mask of those weights would give, over all blocks' modes concatenated in block order.
 *
 * @throws InvalidArgumentError - when replicas count different numbers of modes
 */
export function modeSelection(structure: EigenbasisChi2): ModeSelection {
  const replicas = structure.replicas;
  const modes = structure.blocks.reduce((sum, block) => sum + block.modes, 0);
  const perReplica: number[][] = Array.from({ length: replicas }, () => []);
  const inverse: number[][] = Array.from({ length: replicas }, () => []);
  let first = 0;
  for (const block of structure.blocks) {
    for (let r = 0; r < replicas; r++) {
      for (let k = 0; k < block.modes; k++) {
        const weight = block.weights[r * block.modes + k];
        if (weight !== 0) {
          perReplica[r].push(r * modes + first + k);
          inverse[r].push(weight);
        }
      }
    }
    first += block.modes;
  }
  const count = perReplica[0].length;
  if (perReplica.some((selected) => selected.length !== count)) {
    throw new InvalidArgumentError({
      argument: 'structure',
      problem: 'replicas count different numbers of modes; a batched selection needs equal counts',
    });
  }
  return {
    indices: Int32Array.from(perReplica.flat()),
    inverseEigenvalues: Float32Array.from(inverse.flat()),
    perReplica: count,
  };
}

/**
 * `values[indices]` of a 1-D tensor, with a scatter as its gradient (gather's own fails on wasm);
 * the indices are saved for the backward pass, so they may be created inside the gradient tape.
 */
function gatherWithScatterGradient(values: tf.Tensor1D, indices: tf.Tensor1D): tf.Tensor1D {
  const gather = withCustomGrad(([input], save) => {
    save([indices]);
    return {
      value: tf.gather(input, indices),
      gradFunc: (dy, [saved]) => tf.scatterND(tf.reshape(saved, [-1, 1]), dy, [values.size]),
    };
  });
  return gather(values) as tf.Tensor1D;
}

function eigenbasis(structure: FitInputs['training'], name: string): EigenbasisChi2 {
  if (structure.kind !== 'eigenbasis') {
    throw new InvalidArgumentError({
      argument: name,
      problem: 'the gathered-split variant needs a diagonal-basis split (diagonal_basis: true)',
    });
  }
  return structure;
}

/** The losses of the gathered-split variant, for a PDF, with its own constants. */
export interface GatheredSplitLosses {
  /**
   * The losses of one forward pass, with the training and validation modes selected by index:
   * the index arrays are uploaded anew at every call (call it inside a `tf.tidy`).
   */
  losses(pdf: tf.Tensor3D): FitLosses;
  /** Frees the constants and the penalty layers. */
  dispose(): void;
}

/**
 * The training loss, validation loss and penalties of {@link gatheredSplitStep}: predictions from
 * `parts.objective.predictions`, residuals rotated to the eigenbasis block by block (the same
 * fast constant products as the χ² layers), the modes of each replica selected by index with a
 * gather (gradient: a scatter), and the positivity and integrability penalties of
 * `parts.objective` (its own Lagrange terms). Equal, to float32 rounding, to
 * `parts.objective.losses`.
 *
 * @throws InvalidArgumentError - for inputs without a diagonal-basis split
 */
export function gatheredSplitLosses(parts: TrainingParts, inputs: FitInputs): GatheredSplitLosses {
  const { objective } = parts;
  const training = modeSelection(eigenbasis(inputs.training, 'training'));
  const validation = modeSelection(eigenbasis(inputs.validation, 'validation'));
  const replicas = inputs.replicas.length;
  const blocks = eigenbasis(inputs.training, 'training').blocks.map((block) => ({
    offset: block.offset,
    size: block.size,
    rotation: ConstantMatrix.fromArray(block.rotation, block.size, block.modes),
  }));
  const pseudodata = tf.tensor2d(inputs.pseudodata, [replicas, inputs.ndata]);
  const validationCounts = tf.tensor1d(
    Array.from(inputs.validationCounts, (count) => Math.max(count, 1)),
  );
  const terms = objective.lagrangeTerms;
  return {
    losses(pdf) {
      const residuals = tf.sub<tf.Tensor2D>(pseudodata, objective.predictions(pdf));
      const rotated = tf.reshape<tf.Rank.R1>(
        tf.concat(
          blocks.map((block) =>
            block.rotation.multiply(tf.slice(residuals, [0, block.offset], [replicas, block.size])),
          ),
          1,
        ),
        [-1],
      );
      const chi2 = (selection: ModeSelection) => {
        const indices = tf.tensor1d(selection.indices, 'int32');
        const modes = gatherWithScatterGradient(rotated, indices);
        const weights = tf.tensor1d(selection.inverseEigenvalues);
        return tf.sum<tf.Tensor1D>(
          tf.reshape(tf.mul(tf.square(modes), weights), [replicas, selection.perReplica]),
          1,
        );
      };
      const trainingChi2 = chi2(training);
      const validationChi2 = chi2(validation);
      const penalties = lagrangePenalties(terms, pdf);
      const zeros = tf.zeros<tf.Rank.R1>([replicas]);
      const ofKind = (kind: string) => penalties.filter((_, t) => terms[t].kind === kind);
      const sum = (list: tf.Tensor1D[]) =>
        list.reduce((total: tf.Tensor1D, term) => tf.add(total, term), zeros);
      const positive = ofKind('positivity');
      const positivity = sum(positive);
      const trainingLoss = tf.add<tf.Tensor1D>(
        tf.add(trainingChi2, positivity),
        sum(ofKind('integrability')),
      );
      return {
        training: trainingLoss,
        trainingChi2,
        validation: tf.add<tf.Tensor1D>(validationChi2, positivity),
        validationChi2PerPoint: tf.div<tf.Tensor1D>(validationChi2, validationCounts),
        positivity: positive.length === 0 ? zeros : tf.max<tf.Tensor1D>(tf.stack(positive, 1), 1),
        total: tf.sum<tf.Scalar>(trainingLoss),
      };
    },
    dispose() {
      for (const block of blocks) block.rotation.dispose();
      tf.dispose([pseudodata, validationCounts]);
    },
  };
}

/**
 * Naive variant of seed 000's precomputed masks: every step, the training and the validation
 * eigenmodes of every replica are selected from the rotated residuals by index — index arrays
 * uploaded that step (what `boolean_mask`'s `where` produces) and a gather (with a scatter as its
 * gradient) — instead of multiplying by the precomputed per-replica weights (1/λ or 0). The
 * predictions come from the same observables (`parts.objective.predictions`), the rotation to the
 * eigenbasis is the same fast constant product, computed once for both selections (the seed's two
 * χ² layers each rotate), and the penalties are the same layers ({@link gatheredSplitLosses}).
 */
export function gatheredSplitStep(parts: TrainingParts, inputs: FitInputs): BenchStep {
  const objective = gatheredSplitLosses(parts, inputs);
  const base = seedStep(parts, inputs);
  return {
    run(epoch) {
      tf.tidy(() => {
        disposeStepLosses(
          trainingStep(parts, epoch, { forward: () => objective.losses(parts.model.forward()) }),
        );
      });
    },
    readBack: () => base.readBack(),
    dispose() {
      base.dispose();
      objective.dispose();
    },
  };
}
