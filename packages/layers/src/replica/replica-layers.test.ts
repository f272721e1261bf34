import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { logXFeatures, xColumn } from '../feature-scaling/network-input.js';
import { Preprocessing } from '../preprocessing/preprocessing.js';
import { ReplicaActivation, ReplicaPreprocessing, SumRuleFactors } from './replica-layers.js';

const FLAVOURS = [
  { fl: 'sng', smallx: [1.1, 1.2], largex: [1.5, 3.3] },
  { fl: 'g', smallx: [0.9, 1.2], largex: [3.1, 6.2] },
  { fl: 'v', smallx: [0.3, 0.7], largex: [1.7, 3.5] },
] as const;
const X = [1e-6, 1e-3, 0.1, 0.5, 0.9, 1];

describeOnBackends('single-replica layers', () => {
  it('should give replica r of the multi-replica Preprocessing with its exponents, x = 1 included', () => {
    const multi = new Preprocessing({ flavours: FLAVOURS, seeds: [11, 12, 13] });
    const all = multi.apply(xColumn(X)) as tf.Tensor3D; // (replicas, x, flavours)
    // alpha_<fl> and beta_<fl>, each (replicas, 1), by name
    const byName = new Map(
      multi.weights.map((weight) => [weight.originalName.split('/').at(-1), weight.read()]),
    );
    const row = 1;
    const exponent = (name: string) =>
      tf.reshape(tf.slice(byName.get(name) as tf.Tensor, [row, 0], [1, 1]), [1]);
    const single = new ReplicaPreprocessing({ flavours: FLAVOURS.map(({ fl }) => fl) });
    const features = logXFeatures(X);
    tf.dispose(single.apply(features) as tf.Tensor); // builds the layer
    single.setWeights([
      ...FLAVOURS.map(({ fl }) => exponent(`alpha_${fl}`)),
      ...FLAVOURS.map(({ fl }) => exponent(`beta_${fl}`)),
    ]);
    const mine = single.apply(features) as tf.Tensor2D; // (x, flavours)
    const expected = tf.squeeze(tf.slice(all, [row, 0, 0], [1, -1, -1]), [0]);
    const [a, b] = [mine.arraySync(), (expected as tf.Tensor2D).arraySync()];
    a.forEach((values, i) => {
      values.forEach((value, f) => {
        // float32: the same formula, summed in another order
        expect(Math.abs(value - b[i][f])).toBeLessThanOrEqual(1e-5 * Math.max(1, b[i][f]));
      });
    });
    expect(a[X.length - 1]).toEqual([0, 0, 0]);
    expect(single.trainableWeights).toHaveLength(0);
    tf.dispose([all, mine, expected, features]);
    multi.dispose();
    single.dispose();
  });

  it('should apply the activations tfjs-layers cannot name, and frozen sum-rule factors', () => {
    const square = new ReplicaActivation({ activation: 'square' });
    expect(Array.from((square.apply(tf.tensor1d([-2, 3])) as tf.Tensor).dataSync())).toEqual([
      4, 9,
    ]);
    const factors = new SumRuleFactors({});
    factors.build([null, 14]);
    factors.setWeights([tf.range(1, 15)]);
    const normalised = factors.apply(tf.ones([2, 14])) as tf.Tensor2D;
    expect(normalised.arraySync()[1]).toEqual(Array.from({ length: 14 }, (_, f) => f + 1));
    expect(() => factors.apply(tf.ones([2, 13]))).toThrow(ShapeError);
  });

  it('should refuse a preprocessing without flavours and survive a config round trip', () => {
    expect(() => new ReplicaPreprocessing({ flavours: [] })).toThrow(InvalidArgumentError);
    const layer = new ReplicaPreprocessing({ flavours: ['g', 'v'] });
    const [registered, fromConfig] =
      tf.serialization.SerializationMap.getMap().classNameMap.PartonfitReplicaPreprocessing;
    const revived = fromConfig(registered, layer.getConfig());
    expect(revived).toBeInstanceOf(ReplicaPreprocessing);
    expect((revived as unknown as { flavours: string[] }).flavours).toEqual(['g', 'v']);
  });
});
