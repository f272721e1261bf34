import type * as tf from '@tensorflow/tfjs-core';
import { ACTIVATIONS, InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { initBackend } from '../selection/init-backend.js';
import {
  checkDenseNetwork,
  DENSE_ACTIVATIONS,
  DENSE_NETWORK_KERNEL,
  denseNetworkAttrs,
  denseNetworkInputs,
  hasDenseNetworkKernels,
} from './dense-network.js';

function info(shape: number[], dtype: tf.DataType = 'float32'): tf.TensorInfo {
  return { dataId: {}, shape, dtype };
}

/** Two replicas, 7 points, 2 features → 5 → 3 units. */
const INPUTS = {
  input: info([7, 2]),
  kernels: [info([2, 2, 5]), info([2, 5, 3])],
  biases: [info([2, 1, 5]), info([2, 1, 3])],
};
const ATTRS = denseNetworkAttrs(
  {
    activations: [
      ['tanh', 'sigmoid'],
      ['linear', 'modified_tanh'],
    ],
  },
  0.2,
);

describe('the dense network kernel contract', () => {
  it('should number the activations as the runcard lists them', () => {
    expect(DENSE_ACTIVATIONS).toEqual(ACTIVATIONS);
    expect(ATTRS).toEqual({ activations: [1, 2, 0, 8], leakyReluAlpha: 0.2 });
  });

  it('should read the sizes of a network that fits together, its input shared or per replica', () => {
    const shared = checkDenseNetwork(DENSE_NETWORK_KERNEL, INPUTS, ATTRS);
    expect({
      ...shared,
      activations: [...shared.activations],
      widths: [...shared.widths],
      passThrough: [...shared.passThrough],
    }).toEqual({
      replicas: 2,
      points: 7,
      inputs: 2,
      sharedInput: true,
      units: [5, 3],
      activations: [1, 2, 0, 8],
      widths: [5, 5, 3, 3],
      passThrough: [0, 0, 0, 0],
      leakyReluAlpha: 0.2,
      tapeSize: 2 * 2 * 7 * (5 + 3),
    });
    const perReplica = checkDenseNetwork(
      DENSE_NETWORK_KERNEL,
      { ...INPUTS, input: info([2, 7, 2]) },
      ATTRS,
    );
    expect([perReplica.sharedInput, perReplica.points, perReplica.inputs]).toEqual([false, 7, 2]);
  });

  it('should refuse a kernel that does not read the previous layer, naming it', () => {
    const inputs = { ...INPUTS, kernels: [info([2, 2, 5]), info([2, 4, 3])] };
    expect(() => checkDenseNetwork(DENSE_NETWORK_KERNEL, inputs, ATTRS)).toThrow(ShapeError);
    expect(() => checkDenseNetwork(DENSE_NETWORK_KERNEL, inputs, ATTRS)).toThrow(/kernel1/);
  });

  it('should refuse a misshapen bias, an input of other replicas and a non-float32 tensor', () => {
    expect(() =>
      checkDenseNetwork(
        DENSE_NETWORK_KERNEL,
        { ...INPUTS, biases: [info([2, 1, 5]), info([2, 3])] },
        ATTRS,
      ),
    ).toThrow(/bias1/);
    expect(() =>
      checkDenseNetwork(DENSE_NETWORK_KERNEL, { ...INPUTS, input: info([3, 7, 2]) }, ATTRS),
    ).toThrow(/input/);
    expect(() =>
      checkDenseNetwork(DENSE_NETWORK_KERNEL, { ...INPUTS, input: info([7, 2], 'int32') }, ATTRS),
    ).toThrow(InvalidArgumentError);
  });

  it('should refuse activation codes that are not one known code per layer and replica', () => {
    expect(() =>
      checkDenseNetwork(DENSE_NETWORK_KERNEL, INPUTS, { ...ATTRS, activations: [1, 2, 0] }),
    ).toThrow(/activations/);
    expect(() =>
      checkDenseNetwork(DENSE_NETWORK_KERNEL, INPUTS, { ...ATTRS, activations: [1, 2, 0, 9] }),
    ).toThrow(/DENSE_ACTIVATIONS/);
  });

  it("should read each replica's widths and pass-throughs, and refuse ones that do not fit", () => {
    const attrs = denseNetworkAttrs(
      {
        activations: [
          ['tanh', 'tanh'],
          ['linear', 'linear'],
        ],
        widths: [
          [4, 2],
          [3, 3],
        ],
        passThrough: [
          [false, true],
          [false, false],
        ],
      },
      0.2,
    );
    const network = checkDenseNetwork(DENSE_NETWORK_KERNEL, INPUTS, attrs);
    expect([[...network.widths], [...network.passThrough]]).toEqual([
      [4, 2, 3, 3],
      [0, 1, 0, 0],
    ]);
    expect(() =>
      checkDenseNetwork(DENSE_NETWORK_KERNEL, INPUTS, { ...attrs, widths: [6, 2, 3, 3] }),
    ).toThrow(/widths/);
    expect(() =>
      checkDenseNetwork(DENSE_NETWORK_KERNEL, INPUTS, { ...attrs, passThrough: [1, 1, 0, 0] }),
    ).toThrow('replica 0 passes layer 0 through but is 4 wide, its input 2');
  });

  it('should read named kernel inputs, with biases only where they are given', () => {
    const named = { input: INPUTS.input, kernel0: INPUTS.kernels[0], kernel1: INPUTS.kernels[1] };
    expect(denseNetworkInputs(named)).toEqual({ input: INPUTS.input, kernels: INPUTS.kernels });
    expect(
      denseNetworkInputs({ ...named, bias0: INPUTS.biases[0], bias1: INPUTS.biases[1] }),
    ).toEqual(INPUTS);
    expect(() => denseNetworkInputs({ kernel0: INPUTS.kernels[0] })).toThrow(/input/);
  });

  it('should have no network kernels on cpu', async () => {
    await initBackend('cpu');
    expect(hasDenseNetworkKernels()).toBe(false);
  });
});
