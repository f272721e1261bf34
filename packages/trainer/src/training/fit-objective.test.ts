import * as tf from '@tensorflow/tfjs-core';
import { Chi2Loss, ObservableLayer } from '@partonfit/layers';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import {
  disposeLagrangeTerms,
  FitObjective,
  lagrangeOptions,
  lagrangePenalties,
  lagrangeTerms,
} from './fit-objective.js';
import { closureInputs, smallClosureRuncard } from './training.fixture.js';

const REPLICAS = [1, 2, 3];

/** Largest |a − b| over the largest |b|: float32 rounding is ~1e-7, a wrong sum is ~1. */
function relativeError(a: tf.Tensor, b: tf.Tensor): number {
  const [x, y] = [a.dataSync(), b.dataSync()];
  let worst = 0;
  let largest = 0;
  y.forEach((value, i) => {
    worst = Math.max(worst, Math.abs((x[i] ?? Number.NaN) - value));
    largest = Math.max(largest, Math.abs(value));
  });
  return worst / largest;
}

describeOnBackends('FitObjective', () => {
  it('should give the losses and gradient of every dataset and set on its own layer', async () => {
    const runcard = await smallClosureRuncard({ epochs: 10 });
    const inputs = await closureInputs(runcard, REPLICAS);
    const options = lagrangeOptions(runcard);
    const objective = new FitObjective(inputs, options, { stacked: true });
    // the unfused composition: one layer per dataset and per positivity set
    const layers = inputs.datasets.map(
      (dataset) => new ObservableLayer({ observable: dataset.observable }),
    );
    const terms = lagrangeTerms(inputs, options);
    const chi2 = new Chi2Loss({ structure: inputs.training, data: inputs.pseudodata });
    // A PDF that is negative at some points, so that the positivity penalties are not zero.
    const pdf = tf.tidy(() =>
      tf.sub<tf.Tensor3D>(
        tf.randomUniform([REPLICAS.length, inputs.xGrid.length, 14], 0, 1, 'float32', 7),
        0.2,
      ),
    );
    const unfused = (input: tf.Tensor3D) => {
      const predictions = tf.concat(
        layers.map((layer) => layer.apply(input) as tf.Tensor2D),
        1,
      );
      const penalties = tf.stack(lagrangePenalties(terms, input), 1);
      return {
        training: tf.add(chi2.apply(predictions) as tf.Tensor1D, tf.sum(penalties, 1)),
        positivity: tf.max(penalties, 1),
      };
    };
    const compare = () => {
      const fused = objective.losses(pdf);
      const reference = unfused(pdf);
      const gradient = tf.grad((input: tf.Tensor) => objective.losses(input as tf.Tensor3D).total)(
        pdf,
      );
      const referenceGradient = tf.grad((input: tf.Tensor) =>
        tf.sum(unfused(input as tf.Tensor3D).training),
      )(pdf);
      const errors = [
        relativeError(fused.training, reference.training),
        relativeError(fused.positivity, reference.positivity),
        relativeError(gradient, referenceGradient),
      ];
      const positivity = Array.from(reference.positivity.dataSync());
      tf.dispose([gradient, referenceGradient]);
      tf.dispose([fused.training, fused.trainingChi2, fused.validation, fused.positivity]);
      tf.dispose([fused.validationChi2PerPoint, fused.total]);
      tf.dispose(Object.values(reference));
      return { errors, positivity };
    };
    expect(terms.length).toBe(4);
    const before = compare();
    expect(Math.min(...before.positivity)).toBeGreaterThan(0);
    expect(Math.max(...before.errors)).toBeLessThan(1e-5);
    // the multipliers grow (every 100 epochs in a fit): the stacked sets see the new λ
    objective.updateMultipliers();
    for (const term of terms) term.penalty.scaleMultiplier(term.schedule.multiplier);
    const after = compare();
    expect(after.positivity[0]).toBeGreaterThan(1.5 * (before.positivity[0] ?? 0));
    expect(Math.max(...after.errors)).toBeLessThan(1e-5);
    tf.dispose(pdf);
    for (const layer of [...layers, chi2]) layer.dispose();
    disposeLagrangeTerms(terms);
    objective.dispose();
  });
});
