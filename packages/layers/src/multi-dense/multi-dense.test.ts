import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { ACTIVATIONS, INITIALIZERS, InvalidArgumentError, ShapeError } from '@partonfit/core';
import { expect, it } from 'vitest';
import {
  expectClose,
  randomArray,
  tensorGrowth,
  toFloat32,
  values,
} from '../ops/numeric.fixture.js';
import { describeOnBackends } from '@partonfit/testing';
import { applyActivation, type ActivationName } from './activations.js';
import {
  backward64,
  forward64,
  ACTIVATIONS_64,
  type DenseLayer64,
} from './dense-network.fixture.js';
import { RANDOM_UNIFORM_LIMIT, type InitializerName } from './initializers.js';
import { variablesOf } from './layer-testing.fixture.js';
import { MultiDense, multiDense } from './multi-dense.js';

const POINTS = 37;
const NNPDF40 = { sizes: [2, 25, 20, 8], activations: ['tanh', 'tanh', 'linear'] as const };

/** The same initialiser a user would hand to a single-replica `tf.layers.dense`. */
function singleReplicaInitializer(name: InitializerName, seed: number) {
  switch (name) {
    case 'glorot_normal':
      return tfl.initializers.glorotNormal({ seed });
    case 'glorot_uniform':
      return tfl.initializers.glorotUniform({ seed });
    case 'random_uniform':
      return tfl.initializers.randomUniform({
        minval: -RANDOM_UNIFORM_LIMIT,
        maxval: RANDOM_UNIFORM_LIMIT,
        seed,
      });
  }
}

/** Seeds of layer `layer` for each replica, as a model builder would derive them. */
const layerSeeds = (replicaSeeds: readonly number[], layer: number) =>
  replicaSeeds.map((seed) => seed + layer);

function multiDenseStack(replicaSeeds: readonly number[], initializer: InitializerName) {
  return NNPDF40.activations.map((activation, layer) =>
    multiDense({
      units: NNPDF40.sizes[layer + 1],
      activation,
      initializer,
      seeds: layerSeeds(replicaSeeds, layer),
      sharedInput: layer === 0,
    }),
  );
}

function applyStack(layers: readonly tfl.layers.Layer[], x: tf.Tensor): tf.Tensor {
  return layers.reduce((h, layer) => layer.apply(h) as tf.Tensor, x);
}

describeOnBackends('MultiDense', () => {
  it.each(INITIALIZERS)(
    'should equal independent single-replica tf.layers.dense stacks replica by replica (%s)',
    (initializer) => {
      const replicaSeeds = [7, 1234, 99_001, 4_000_000_000, 42];
      const x = tf.tensor2d(toFloat32(randomArray(POINTS * 2, 1, 0.01, 1)), [POINTS, 2]);
      const upstream = tf.tensor3d(toFloat32(randomArray(5 * POINTS * 8, 2)), [5, POINTS, 8]);
      const multi = multiDenseStack(replicaSeeds, initializer);
      const multiLoss = () => tf.sum<tf.Scalar>(tf.mul(applyStack(multi, x), upstream));
      const multiOutput = applyStack(multi, x);
      const multiGrads = tf.variableGrads(multiLoss, variablesOf(multi));

      replicaSeeds.forEach((seed, replica) => {
        const single = NNPDF40.activations.map((activation, layer) =>
          tfl.layers.dense({
            units: NNPDF40.sizes[layer + 1],
            activation,
            kernelInitializer: singleReplicaInitializer(initializer, seed + layer),
            biasInitializer: 'zeros',
          }),
        );
        const replicaUpstream = tf.squeeze(
          tf.slice(upstream, [replica, 0, 0], [1, POINTS, 8]),
          [0],
        );
        const singleOutput = applyStack(single, x);
        const singleLoss = () => tf.sum<tf.Scalar>(tf.mul(applyStack(single, x), replicaUpstream));
        const singleGrads = tf.variableGrads(singleLoss, variablesOf(single));

        single.forEach((layer, l) => {
          const [kernel, bias] = layer.getWeights();
          const [multiKernel, multiBias] = multi[l].getWeights();
          expect(values(tf.gather(multiKernel, replica))).toEqual(values(kernel));
          expect(values(tf.gather(multiBias, replica))).toEqual(values(bias));
        });
        expectClose(values(tf.gather(multiOutput, replica)), values(singleOutput), 1e-5);
        variablesOf(single).forEach((variable, k) => {
          const multiVariable = variablesOf(multi)[k];
          expectClose(
            values(tf.gather(multiGrads.grads[multiVariable.name], replica)),
            values(singleGrads.grads[variable.name]),
            1e-5,
          );
        });
      });
    },
  );

  it.each([1, 3])(
    'should equal a float64 loop of the formula, forward and gradient, for every activation (R = %i)',
    (replicas) => {
      for (const [index, activation] of ACTIVATIONS.entries()) {
        const sizes = [3, 6, 4];
        const seeds = Array.from({ length: replicas }, (_, r) => 100 * index + r);
        const layers = [0, 1].map((l) =>
          multiDense({ units: sizes[l + 1], activation, seeds, sharedInput: l === 0 }),
        );
        const reference: DenseLayer64[] = [0, 1].map((l) => ({
          kernel: toFloat32(
            randomArray(replicas * sizes[l] * sizes[l + 1], 10 + l + index, -0.9, 0.9),
          ),
          bias: toFloat32(randomArray(replicas * sizes[l + 1], 20 + l + index, -0.5, 0.5)),
          inputs: sizes[l],
          units: sizes[l + 1],
          activation,
        }));
        const x = toFloat32(randomArray(POINTS * 3, 30 + index, -1.5, 1.5));
        const upstream = toFloat32(randomArray(replicas * POINTS * 4, 40 + index));
        const xVariable = tf.variable(tf.tensor2d(x, [POINTS, 3]));
        layers.forEach((layer, l) => {
          layer.apply(l === 0 ? xVariable : tf.zeros([replicas, 1, sizes[l]]));
          layer.setWeights([
            tf.tensor3d(reference[l].kernel as Float32Array, [replicas, sizes[l], sizes[l + 1]]),
            tf.tensor3d(reference[l].bias as Float32Array, [replicas, 1, sizes[l + 1]]),
          ]);
        });
        const output = applyStack(layers, xVariable);
        const { grads } = tf.variableGrads(
          () =>
            tf.sum<tf.Scalar>(
              tf.mul(applyStack(layers, xVariable), tf.tensor3d(upstream, [replicas, POINTS, 4])),
            ),
          [xVariable, ...variablesOf(layers)],
        );
        expect(output.shape).toEqual([replicas, POINTS, 4]);
        const forward = forward64(x, POINTS, replicas, reference);
        const gradients = backward64(forward, upstream, POINTS, replicas, reference);
        expectClose(values(output), forward.output, 2e-5);
        expectClose(values(grads[xVariable.name]), gradients.input, 2e-5);
        variablesOf(layers).forEach((variable, k) => {
          const expected = k % 2 === 0 ? gradients.kernels[k / 2] : gradients.biases[(k - 1) / 2];
          expectClose(values(grads[variable.name]), expected, 2e-5);
        });
        xVariable.dispose();
      }
    },
  );

  it('should apply each activation as its float64 formula, with its derivative', () => {
    const z = toFloat32(randomArray(200, 5, -3, 3));
    for (const activation of ACTIVATIONS) {
      const input = tf.tensor1d(z);
      const value = applyActivation(activation, input);
      const derivative = tf.grad((t: tf.Tensor) => tf.sum(applyActivation(activation, t)))(input);
      expect(value.shape).toEqual([200]);
      const formula = ACTIVATIONS_64[activation];
      expectClose(values(value), Array.from(z, formula.value), 1e-6);
      expectClose(values(derivative), Array.from(z, formula.derivative), 1e-5);
    }
  });

  it('should initialise deterministically with seed 0, which tfjs would leave unseeded', () => {
    const kernels = [0, 1].map(() => {
      const layer = multiDense({ units: 4, seeds: [0, 5], sharedInput: true });
      layer.apply(tf.zeros([1, 3]));
      return values(layer.getWeights()[0]);
    });
    expect(kernels[0]).toEqual(kernels[1]);
  });

  it('should give the same result inside a functional tf.LayersModel as called eagerly', () => {
    const replicaSeeds = [3, 5];
    const layers = multiDenseStack(replicaSeeds, 'glorot_normal');
    const input = tfl.input({ shape: [2] });
    const model = tfl.model({
      inputs: input,
      outputs: applyStack(layers, input as unknown as tf.Tensor) as unknown as tfl.SymbolicTensor,
    });
    const x = tf.tensor2d(toFloat32(randomArray(POINTS * 2, 8, 0.01, 1)), [POINTS, 2]);
    const fromModel = model.apply(x) as tf.Tensor;
    expect(model.outputs[0].shape).toEqual([2, null, 8]);
    expect(fromModel.shape).toEqual([2, POINTS, 8]);
    expect(values(fromModel)).toEqual(values(applyStack(layers, x)));
  });

  it('should keep the number of tensors constant over 100 forward and backward passes', () => {
    const layers = multiDenseStack([1, 2, 3], 'glorot_uniform');
    const x = tf.tensor2d(toFloat32(randomArray(POINTS * 2, 9, 0.01, 1)), [POINTS, 2]);
    applyStack(layers, x).dispose();
    const growth = tensorGrowth(() => {
      const { value, grads } = tf.variableGrads(
        () => tf.sum<tf.Scalar>(applyStack(layers, x)),
        variablesOf(layers),
      );
      value.dispose();
      Object.values(grads).forEach((grad) => {
        grad.dispose();
      });
    });
    expect(growth).toBe(0);
  });

  it('should reject bad arguments and inputs with typed errors', () => {
    expect(() => multiDense({ units: 0, seeds: [1] })).toThrow(InvalidArgumentError);
    expect(() => multiDense({ units: 3, seeds: [] })).toThrow(/one seed per replica/);
    expect(() => multiDense({ units: 3, seeds: [1, 2], replicas: 3 })).toThrow(
      /3 replicas but 2 seeds/,
    );
    expect(() => multiDense({ units: 3, seeds: [1.5] })).toThrow(/seeds\[0\]/);
    expect(() =>
      multiDense({ units: 3, seeds: [1], activation: 'swish' as ActivationName }),
    ).toThrow(/activation: expected one of linear, tanh/);
    expect(() =>
      multiDense({ units: 3, seeds: [1], initializer: 'he_normal' as InitializerName }),
    ).toThrow(/initializer/);
    expect(
      multiDense({ units: 3, seeds: [1], activation: 'modifiedTanh' as ActivationName }).activation,
    ).toBe('modified_tanh');
    expect(
      multiDense({ units: 3, seeds: [1], initializer: 'glorotUniform' as InitializerName })
        .initializer,
    ).toBe('glorot_uniform');
    const layer = multiDense({ units: 3, seeds: [1, 2] });
    expect(() => layer.apply(tf.zeros([3, 4, 2]))).toThrow(ShapeError);
    const shared = new MultiDense({ units: 3, seeds: [1, 2], sharedInput: true });
    expect(() => shared.apply(tf.zeros([2, 4, 2]))).toThrow(ShapeError);
  });
});
