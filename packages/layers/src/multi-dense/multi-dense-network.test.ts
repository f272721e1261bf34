import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { ACTIVATIONS, InvalidArgumentError, ShapeError } from '@partonfit/core';
import { expect, it } from 'vitest';
import {
  expectClose,
  randomArray,
  tensorGrowth,
  toFloat32,
  values,
} from '../ops/numeric.fixture.js';
import { DENSE_NETWORK_GRAD_KERNEL, DENSE_NETWORK_KERNEL } from '@partonfit/backend';
import { describeOnBackends } from '@partonfit/testing';
import type { ActivationName } from './activations.js';
import { backward64, forward64, type DenseLayer64 } from './dense-network.fixture.js';
import { asVariable, rebuilt, variablesOf } from './layer-testing.fixture.js';
import {
  MultiDenseNetwork,
  multiDenseNetwork,
  type NetworkFormulation,
} from './multi-dense-network.js';
import { multiDense } from './multi-dense.js';

const POINTS = 29;

/** Three activations per network, so that every activation is used by some case. */
const ACTIVATION_TRIPLES: ActivationName[][] = [
  ['tanh', 'tanh', 'linear'],
  ['sigmoid', 'relu', 'elu'],
  ['softplus', 'square', 'leaky_relu'],
  ['modified_tanh', 'leaky_relu', 'tanh'],
];

/** The formulations a backend runs: every backend the two tensor ones, native also `fused`. */
function formulationsOn(backend: string): Exclude<NetworkFormulation, 'auto'>[] {
  return backend === 'native'
    ? ['per-replica', 'layer-by-layer', 'fused']
    : ['per-replica', 'layer-by-layer'];
}

function seedsFor(replicas: number, layers: number): number[][] {
  return Array.from({ length: layers }, (_, l) =>
    Array.from({ length: replicas }, (_, r) => 1000 * r + l),
  );
}

describeOnBackends('MultiDenseNetwork', (backend) => {
  const formulations = formulationsOn(backend);
  const cases = formulations.flatMap((formulation) =>
    [1, 4].flatMap((replicas) =>
      ACTIVATION_TRIPLES.map((activations) => ({ formulation, replicas, activations })),
    ),
  );

  it.each(cases)(
    'should equal a MultiDense stack with the same seeds, forward and gradient ($formulation, R=$replicas, $activations)',
    ({ formulation, replicas, activations }) => {
      const units = [7, 5, 3];
      const seeds = seedsFor(replicas, 3);
      const network = multiDenseNetwork({
        units,
        activations,
        seeds,
        formulation: formulation,
      });
      const stack = units.map((unitCount, l) =>
        multiDense({
          units: unitCount,
          activation: activations[l],
          seeds: seeds[l],
          sharedInput: l === 0,
        }),
      );
      const x = tf.variable(tf.tensor2d(toFloat32(randomArray(POINTS * 2, 3, -1, 1)), [POINTS, 2]));
      const upstream = tf.tensor3d(toFloat32(randomArray(replicas * POINTS * 3, 4)), [
        replicas,
        POINTS,
        3,
      ]);
      const runStack = () => stack.reduce((h: tf.Tensor, layer) => layer.apply(h) as tf.Tensor, x);
      const output = network.apply(x) as tf.Tensor;
      const expected = runStack();
      expect(output.shape).toEqual([replicas, POINTS, 3]);
      expect(network.getWeights().map(values)).toEqual(
        stack.flatMap((layer) => layer.getWeights().map(values)),
      );
      expectClose(values(output), values(expected), 1e-5);

      const networkGrads = tf.variableGrads(
        () => tf.sum<tf.Scalar>(tf.mul(network.apply(x) as tf.Tensor, upstream)),
        [x, ...variablesOf([network])],
      );
      const stackGrads = tf.variableGrads(
        () => tf.sum<tf.Scalar>(tf.mul(runStack(), upstream)),
        [x, ...variablesOf(stack)],
      );
      const networkVariables = [x, ...variablesOf([network])];
      [x, ...variablesOf(stack)].forEach((variable, k) => {
        expectClose(
          values(networkGrads.grads[networkVariables[k].name]),
          values(stackGrads.grads[variable.name]),
          2e-5,
        );
      });
      x.dispose();
    },
  );

  it.each(formulations)('should equal the float64 loop on random weights (%s)', (formulation) => {
    const [replicas, sizes] = [3, [2, 6, 5, 4]];
    const activations: ActivationName[] = ['modified_tanh', 'square', 'softplus'];
    const network = multiDenseNetwork({
      units: sizes.slice(1),
      activations,
      seeds: seedsFor(replicas, 3),
      formulation,
    });
    const x = toFloat32(randomArray(POINTS * 2, 5, -1, 1));
    network.apply(tf.zeros([1, 2]));
    const reference: DenseLayer64[] = activations.map((activation, l) => ({
      kernel: toFloat32(randomArray(replicas * sizes[l] * sizes[l + 1], 20 + l, -0.8, 0.8)),
      bias: toFloat32(randomArray(replicas * sizes[l + 1], 30 + l, -0.4, 0.4)),
      inputs: sizes[l],
      units: sizes[l + 1],
      activation,
    }));
    network.setWeights(
      reference.flatMap((layer) => [
        tf.tensor3d(layer.kernel as Float32Array, [replicas, layer.inputs, layer.units]),
        tf.tensor3d(layer.bias as Float32Array, [replicas, 1, layer.units]),
      ]),
    );
    const upstream = toFloat32(randomArray(replicas * POINTS * 4, 6));
    const input = tf.variable(tf.tensor2d(x, [POINTS, 2]));
    const { grads } = tf.variableGrads(
      () =>
        tf.sum<tf.Scalar>(
          tf.mul(network.apply(input) as tf.Tensor, tf.tensor3d(upstream, [replicas, POINTS, 4])),
        ),
      [input, ...variablesOf([network])],
    );
    const forward = forward64(x, POINTS, replicas, reference);
    const gradients = backward64(forward, upstream, POINTS, replicas, reference);
    expect(network.activeFormulation()).toBe(formulation);
    expectClose(values(network.apply(input) as tf.Tensor), forward.output, 2e-5);
    expectClose(values(grads[input.name]), gradients.input, 2e-5);
    variablesOf([network]).forEach((variable, k) => {
      const expected = k % 2 === 0 ? gradients.kernels[k / 2] : gradients.biases[(k - 1) / 2];
      expectClose(values(grads[variable.name]), expected, 2e-5);
    });
    input.dispose();
  });

  it('should choose the fused kernels on native, else layer by layer for one replica and per-replica products for more', () => {
    const one = multiDenseNetwork({ units: [3], activations: ['tanh'], seeds: [[1]] });
    const two = multiDenseNetwork({ units: [3], activations: ['tanh'], seeds: [[1, 2]] });
    expect([one.activeFormulation(), two.activeFormulation()]).toEqual(
      backend === 'native' ? ['fused', 'fused'] : ['layer-by-layer', 'per-replica'],
    );
  });

  it('should refuse the fused formulation on a backend without the network kernels', () => {
    // native has them: take them away for this test
    const removed = [DENSE_NETWORK_KERNEL, DENSE_NETWORK_GRAD_KERNEL].flatMap((name) => {
      const config = tf.getKernel(name, backend) as tf.KernelConfig | undefined;
      if (config !== undefined) tf.unregisterKernel(name, backend);
      return config === undefined ? [] : [config];
    });
    const fused = multiDenseNetwork({
      units: [3],
      activations: ['tanh'],
      seeds: [[1]],
      formulation: 'fused',
    });
    try {
      expect(() => fused.apply(tf.zeros([4, 2]))).toThrow(
        `formulation: 'fused' needs a backend with the network kernels (native); '${backend}' has none`,
      );
    } finally {
      removed.forEach((config) => {
        tf.registerKernel(config);
      });
    }
  });

  it.each(formulations)(
    'should keep the number of tensors constant over 100 training steps (%s)',
    (formulation) => {
      const network = multiDenseNetwork({
        units: [6, 4],
        activations: ['tanh', 'linear'],
        seeds: seedsFor(3, 2),
        formulation,
      });
      const x = tf.tensor2d(toFloat32(randomArray(POINTS * 2, 7)), [POINTS, 2]);
      network.apply(x);
      const optimizer = tf.train.adam(1e-3);
      const variables = network.trainableWeights.map((weight) => asVariable(weight.read()));
      const growth = tensorGrowth(() => {
        optimizer.minimize(
          () => tf.sum<tf.Scalar>(tf.square(network.apply(x) as tf.Tensor)),
          false,
          variables,
        );
        (network.apply(x) as tf.Tensor).dispose();
      });
      expect(growth).toBe(0);
    },
  );

  it('should work in a functional model and rebuild from its config', () => {
    const network = multiDenseNetwork({
      units: [4, 2],
      activations: ['leaky_relu', 'linear'],
      initializer: 'random_uniform',
      seeds: seedsFor(2, 2),
    });
    const input = tfl.input({ shape: [2] });
    const model = tfl.model({ inputs: input, outputs: network.apply(input) as tfl.SymbolicTensor });
    expect(model.outputs[0].shape).toEqual([2, null, 2]);
    const copy = rebuilt(network, MultiDenseNetwork);
    const x = tf.tensor2d(toFloat32(randomArray(POINTS * 2, 8)), [POINTS, 2]);
    expect(values(copy.apply(x) as tf.Tensor)).toEqual(values(model.apply(x) as tf.Tensor));
  });

  it.each(formulations)(
    'should compute each narrower replica as its own network of its widths, padding masked to exact zeros (%s)',
    (formulation) => {
      // replica 0 is 7-5 wide, replica 1 4-2 (initialised with another initialiser), replica 2 6-5
      const replicaUnits = [
        [7, 4, 6],
        [5, 2, 5],
        [3, 3, 3],
      ];
      const activations: ActivationName[] = ['sigmoid', 'softplus', 'tanh'];
      const initializers = ['glorot_normal', 'random_uniform', 'glorot_uniform'] as const;
      const seeds = seedsFor(3, 3);
      const padded = multiDenseNetwork({
        units: [7, 5, 3],
        activations,
        seeds,
        initializer: initializers,
        replicaUnits,
        formulation,
      });
      const x = tf.variable(tf.tensor2d(toFloat32(randomArray(POINTS * 2, 9, -1, 1)), [POINTS, 2]));
      const upstream = tf.tensor3d(toFloat32(randomArray(3 * POINTS * 3, 10)), [3, POINTS, 3]);
      const output = values(padded.apply(x) as tf.Tensor);
      const { grads } = tf.variableGrads(
        () => tf.sum<tf.Scalar>(tf.mul(padded.apply(x) as tf.Tensor, upstream)),
        variablesOf([padded]),
      );
      const paddedGrads = variablesOf([padded]).map((variable) => values(grads[variable.name]));
      const paddedWeights = padded.getWeights().map(values);
      expect(padded.padded).toBe(true);
      for (let r = 0; r < 3; r++) {
        const own = multiDenseNetwork({
          units: replicaUnits.map((layer) => layer[r]),
          activations,
          seeds: seeds.map((layer) => [layer[r]]),
          initializer: initializers[r],
          formulation,
        });
        const ownOutput = values(own.apply(x) as tf.Tensor);
        expectClose(output.slice(r * POINTS * 3, (r + 1) * POINTS * 3), ownOutput, 1e-6);
        const upstreamRow = tf.slice(upstream, [r, 0, 0], [1, POINTS, 3]);
        const ownGrads = tf.variableGrads(
          () => tf.sum<tf.Scalar>(tf.mul(own.apply(x) as tf.Tensor, upstreamRow)),
          variablesOf([own]),
        );
        const ownWeights = own.getWeights().map(values);
        variablesOf([own]).forEach((variable, k) => {
          const [inputs, units] = own.getWeights()[k].shape.slice(1);
          const [paddedInputs, paddedUnits] = padded.getWeights()[k].shape.slice(1);
          const block = (flat: Float64Array, row: number, cut: boolean) => {
            const kept: number[] = [];
            const masked: number[] = [];
            for (let i = 0; i < paddedInputs; i++) {
              for (let j = 0; j < paddedUnits; j++) {
                const value = flat[(row * paddedInputs + i) * paddedUnits + j];
                (cut && (i >= inputs || j >= units) ? masked : kept).push(value);
              }
            }
            return { kept, masked };
          };
          const weight = block(paddedWeights[k], r, true);
          const gradient = block(paddedGrads[k], r, true);
          // the initial weights are the replica's own, bit for bit; the padding is 0
          expect(weight.kept).toEqual(Array.from(ownWeights[k]));
          expect(weight.masked.every((value) => value === 0)).toBe(true);
          expectClose(gradient.kept, values(ownGrads.grads[variable.name]), 2e-5);
          expect(gradient.masked.every((value) => value === 0)).toBe(true);
        });
      }
      const copy = rebuilt(padded, MultiDenseNetwork);
      expect(copy.replicaUnits).toEqual(replicaUnits);
      expect(copy.initializers).toEqual(initializers);
      copy.apply(x);
      copy.setWeights(padded.getWeights());
      expect(values(copy.apply(x) as tf.Tensor)).toEqual(output);
      x.dispose();
    },
  );

  it.each(formulations)(
    'should compute shallower replicas and replicas of other activations as their own networks (%s)',
    (formulation) => {
      // replica 0 is 7-5-3 (tanh, tanh); replica 1 is 4-3 (sigmoid) and passes layer 1 through;
      // replica 2 is a single linear 3-unit layer and passes layers 0 and 1 through
      const own: { units: number[]; activations: ActivationName[]; layers: number[] }[] = [
        { units: [7, 5, 3], activations: ['tanh', 'tanh', 'linear'], layers: [0, 1, 2] },
        { units: [4, 3], activations: ['sigmoid', 'linear'], layers: [0, -1, 1] },
        { units: [3], activations: ['linear'], layers: [-1, -1, 0] },
      ];
      const seedOf = (r: number, layer: number) => 100 * r + layer;
      const passThrough = [0, 1, 2].map((l) => own.map((replica) => replica.layers[l] < 0));
      const network = multiDenseNetwork({
        units: [7, 5, 3],
        activations: ['tanh', 'tanh', 'linear'],
        replicaActivations: [0, 1, 2].map((l) =>
          own.map((replica) => replica.activations[replica.layers[l]] ?? 'linear'),
        ),
        replicaUnits: [
          [7, 4, 2],
          [5, 4, 2],
          [3, 3, 3],
        ],
        passThrough,
        seeds: [0, 1, 2].map((l) => own.map((replica, r) => seedOf(r, replica.layers[l] + 1))),
        formulation,
      });
      const x = tf.tensor2d(toFloat32(randomArray(POINTS * 2, 11, -1, 1)), [POINTS, 2]);
      const upstream = tf.tensor3d(toFloat32(randomArray(3 * POINTS * 3, 12)), [3, POINTS, 3]);
      const output = values(network.apply(x) as tf.Tensor);
      const { grads } = tf.variableGrads(
        () => tf.sum<tf.Scalar>(tf.mul(network.apply(x) as tf.Tensor, upstream)),
        variablesOf([network]),
      );
      const kernelGrads = variablesOf([network])
        .filter((_, k) => k % 2 === 0)
        .map((variable) => grads[variable.name] as tf.Tensor3D);
      own.forEach((replica, r) => {
        const alone = multiDenseNetwork({
          units: replica.units,
          activations: replica.activations,
          seeds: replica.units.map((_, layer) => [seedOf(r, layer + 1)]),
          formulation,
        });
        expectClose(
          output.slice(r * POINTS * 3, (r + 1) * POINTS * 3),
          values(alone.apply(x) as tf.Tensor),
          1e-6,
        );
        const upstreamRow = tf.slice(upstream, [r, 0, 0], [1, POINTS, 3]);
        const aloneGrads = tf.variableGrads(
          () => tf.sum<tf.Scalar>(tf.mul(alone.apply(x) as tf.Tensor, upstreamRow)),
          variablesOf([alone]),
        ).grads;
        const aloneKernels = variablesOf([alone]).filter((_, k) => k % 2 === 0);
        const rowOf = (l: number) => {
          const [, inputs, units] = kernelGrads[l].shape;
          return tf.slice(kernelGrads[l], [r, 0, 0], [1, inputs, units]);
        };
        const passed = replica.layers.flatMap((layer, l) => (layer < 0 ? [values(rowOf(l))] : []));
        // a layer passed through has no weight of the replica's: its gradient is exactly 0
        expect(passed.every((gradient) => gradient.every((value) => value === 0))).toBe(true);
        replica.layers.forEach((layer, l) => {
          if (layer < 0) return;
          const [ownInputs, ownUnits] = aloneKernels[layer].shape.slice(-2);
          const block = tf.slice(rowOf(l), [0, 0, 0], [1, ownInputs, ownUnits]);
          expectClose(values(block), values(aloneGrads[aloneKernels[layer].name]), 2e-5);
        });
      });
      expect(rebuilt(network, MultiDenseNetwork).passThrough).toEqual(passThrough);
      x.dispose();
    },
  );

  it('should refuse a replica passing a layer through at another width than its input', () => {
    const network = multiDenseNetwork({
      units: [4, 3],
      activations: ['tanh', 'linear'],
      seeds: seedsFor(1, 2),
      passThrough: [[true], [false]],
    });
    expect(() => network.apply(tf.zeros([5, 2]))).toThrow(
      'replicaUnits[0][0]: replica 0 passes layer 0 through, so it must be as wide as its input (2), not 4',
    );
  });

  it('should refuse replica widths that do not fit the layers', () => {
    const args = { units: [4, 3], activations: ['tanh', 'linear'] as ActivationName[] };
    expect(() =>
      multiDenseNetwork({
        ...args,
        seeds: seedsFor(2, 2),
        replicaUnits: [
          [4, 5],
          [3, 3],
        ],
      }),
    ).toThrow("replicaUnits[0][1]: replica 1 is 5 units wide, wider than the layer's 4");
    expect(() =>
      multiDenseNetwork({ ...args, seeds: seedsFor(2, 2), replicaUnits: [[4, 4]] }),
    ).toThrow(/replicaUnits: expected one list per layer \(2\), got 1/);
    expect(() =>
      multiDenseNetwork({ ...args, seeds: seedsFor(2, 2), initializer: ['glorot_normal'] }),
    ).toThrow(/initializer: expected one initialiser per replica \(2\), got 1/);
  });

  it('should reject inconsistent settings and inputs with typed errors', () => {
    expect(() =>
      multiDenseNetwork({ units: [3, 2], activations: ['tanh'], seeds: [[1], [2]] }),
    ).toThrow(/one entry per layer/);
    expect(() =>
      multiDenseNetwork({ units: [3, 2], activations: ['tanh', 'tanh'], seeds: [[1, 2], [3]] }),
    ).toThrow(/seeds\[1\]: expected one seed per replica \(2\)/);
    expect(() => multiDenseNetwork({ units: [0], activations: ['tanh'], seeds: [[1]] })).toThrow(
      InvalidArgumentError,
    );
    expect(() =>
      multiDenseNetwork({
        units: [3],
        activations: ['tanh'],
        seeds: [[1]],
        formulation: 'fast' as NetworkFormulation,
      }),
    ).toThrow(/formulation/);
    expect(() =>
      multiDenseNetwork({ units: [3], activations: ['tanh'], seeds: [[1]] }).apply(
        tf.zeros([2, 3, 2]),
      ),
    ).toThrow(ShapeError);
    expect(ACTIVATION_TRIPLES.flat()).toEqual(expect.arrayContaining([...ACTIVATIONS]));
  });
});
