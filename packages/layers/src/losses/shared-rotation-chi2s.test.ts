import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, type EigenbasisChi2 } from '@partonfit/core';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { randomArray, toFloat32, values, worstError } from '../ops/numeric.fixture.js';
import { Chi2Loss } from './chi2-loss.js';
import { randomEigenbasisStructure } from './losses.fixture.js';
import { shareRotations, SharedRotationChi2s } from './shared-rotation-chi2s.js';

const REPLICAS = 3;
const NDATA = 14;

/** Blocks with a gap at [9, 11) and fewer modes than points in the second. */
const training = randomEigenbasisStructure(
  NDATA,
  REPLICAS,
  [
    [0, 5],
    [5, 4, 3],
    [11, 3],
  ],
  31,
);

/** The same blocks and rotations with other mode weights, as a validation split has. */
const validation: EigenbasisChi2 = {
  ...training,
  blocks: training.blocks.map((block, b) => ({
    ...block,
    weights: toFloat32(randomArray(REPLICAS * block.modes, 41 + b, 0, 2)),
  })),
};

const DATA = toFloat32(randomArray(REPLICAS * NDATA, 51));

describeOnBackends('SharedRotationChi2s', () => {
  it('should give each structure the χ² and gradient of its own Chi2Loss', () => {
    const shared = new SharedRotationChi2s([training, validation], DATA);
    const predictions = tf.tensor2d(toFloat32(randomArray(REPLICAS * NDATA, 52)), [
      REPLICAS,
      NDATA,
    ]);
    const upstream = [tf.tensor1d([0.5, -1, 2]), tf.tensor1d([1.5, 0.25, -0.75])];
    const [trainingChi2, validationChi2] = shared.apply(predictions);
    const gradient = tf.grad((input: tf.Tensor) => {
      const chi2s = shared.apply(input as tf.Tensor2D);
      return tf.add(tf.sum(tf.mul(chi2s[0], upstream[0])), tf.sum(tf.mul(chi2s[1], upstream[1])));
    })(predictions);
    const layers = [training, validation].map(
      (structure) => new Chi2Loss({ structure, data: DATA }),
    );
    const reference = layers.map((layer) => layer.apply(predictions) as tf.Tensor1D);
    const referenceGradient = tf.grad((input: tf.Tensor) =>
      tf.add(
        tf.sum(tf.mul(layers[0].apply(input) as tf.Tensor, upstream[0])),
        tf.sum(tf.mul(layers[1].apply(input) as tf.Tensor, upstream[1])),
      ),
    )(predictions);
    expect(trainingChi2.shape).toEqual([REPLICAS]);
    expect(worstError(values(trainingChi2), values(reference[0]), 1e-5)).toBeLessThanOrEqual(1);
    expect(worstError(values(validationChi2), values(reference[1]), 1e-5)).toBeLessThanOrEqual(1);
    expect(values(trainingChi2)).not.toEqual(values(validationChi2));
    expect(worstError(values(gradient), values(referenceGradient), 1e-5)).toBeLessThanOrEqual(1);
    // the gap between the blocks counts in no χ²
    expect(Array.from(gradient.dataSync()).slice(9, 11).map(Math.abs)).toEqual([0, 0]);
    tf.dispose([predictions, trainingChi2, validationChi2, gradient, referenceGradient]);
    tf.dispose([...upstream, ...reference]);
    for (const layer of layers) layer.dispose();
    shared.dispose();
  });

  it('should take only structures with the same blocks and rotations', () => {
    expect(shareRotations([training, validation])).toBe(true);
    const rotated = randomEigenbasisStructure(NDATA, REPLICAS, [[0, 5]], 61);
    expect(shareRotations([training, rotated])).toBe(false);
    expect(shareRotations([])).toBe(false);
    expect(() => new SharedRotationChi2s([training, rotated], DATA)).toThrow(InvalidArgumentError);
    expect(() => new SharedRotationChi2s([training], DATA.subarray(1))).toThrow(
      'length 41 is not a whole number of rows of 14',
    );
  });

  it('should leave no tensor behind', () => {
    const before = tf.memory().numTensors;
    const shared = new SharedRotationChi2s([training, validation], DATA);
    tf.tidy(() => {
      shared.apply(tf.ones([REPLICAS, NDATA]));
    });
    shared.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});
