import * as tf from '@tensorflow/tfjs-core';
import type { FitLosses, StepLosses, TrainingParts } from '@partonfit/trainer';

/** The losses of a step that outlive its gradient computation (until {@link disposeLosses}). */
export type KeptLosses = Omit<FitLosses, 'total'>;

/** Frees the kept losses of a step. */
export function disposeLosses(losses: KeptLosses): void {
  tf.dispose([
    losses.training,
    losses.trainingChi2,
    losses.validation,
    losses.validationChi2PerPoint,
    losses.positivity,
  ]);
}

/**
 * What every step formulation does after its forward pass, exactly as the trainer's loop:
 * gradients of the summed training loss, the stopping update with this step's losses (before the
 * update, so the snapshot holds the weights the losses belong to), the per-replica optimiser
 * update of the replicas still active, and the preprocessing exponents clipped into range. Call it
 * inside a `tf.tidy`; the caller disposes the returned losses ({@link disposeLosses}).
 *
 * @param forward - the PDF's forward pass and the losses read off it
 * @param stoppingLosses - the losses the stopping sees (default: those of `forward`)
 */
export function optimiseStep(
  parts: TrainingParts,
  epoch: number,
  forward: () => FitLosses,
  stoppingLosses: (losses: KeptLosses) => StepLosses = (losses) => losses,
): KeptLosses {
  const { model, optimizer, stopping } = parts;
  const variables = model.trainableVariables();
  let kept: KeptLosses | undefined;
  const { grads } = tf.variableGrads(() => {
    const losses = forward();
    kept = {
      training: tf.keep(losses.training),
      trainingChi2: tf.keep(losses.trainingChi2),
      validation: tf.keep(losses.validation),
      validationChi2PerPoint: tf.keep(losses.validationChi2PerPoint),
      positivity: tf.keep(losses.positivity),
    };
    return losses.total;
  }, variables);
  const losses = kept as KeptLosses;
  try {
    stopping.update(epoch, stoppingLosses(losses));
    optimizer.applyGradients(
      variables,
      variables.map((variable) => grads[variable.name]),
      { active: stopping.activeReplicas() },
    );
    model.preprocessing.clipToRanges();
  } catch (error) {
    disposeLosses(losses);
    throw error;
  }
  return losses;
}
