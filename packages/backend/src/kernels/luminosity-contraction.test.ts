import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { initBackend } from '../selection/init-backend.js';
import {
  checkLuminosityContraction,
  hasFusedLuminosityKernels,
  LUMINOSITY_CONTRACTION_GRAD_KERNEL,
  LUMINOSITY_CONTRACTION_KERNEL,
  luminosityContractionAttrs,
} from './luminosity-contraction.js';

/** A tensor description of the given shape (the kernels' inputs as the backend sees them). */
function info(shape: number[]): tf.TensorInfo {
  return { dataId: {}, shape, dtype: 'float32' };
}

const CHANNELS: [number, number][] = [
  [1, 2],
  [2, 1],
  [0, 3],
];
const ATTRS = luminosityContractionAttrs(CHANNELS);
const PDF = info([5, 4, 14]);
const FK = info([3 * 4 * 4, 7]);

describe('the luminosity kernels contract', () => {
  it('should lay the channels out as the two flavour lists', () => {
    expect(ATTRS).toEqual({ firstFlavours: [1, 2, 0], secondFlavours: [2, 1, 3] });
  });

  it('should read the sizes and channels of a call that fits together', () => {
    const sizes = checkLuminosityContraction(
      LUMINOSITY_CONTRACTION_GRAD_KERNEL,
      { pdf: PDF, fk: FK, dy: info([5, 7]) },
      ATTRS,
    );
    expect(sizes).toEqual({
      replicas: 5,
      x: 4,
      flavours: 14,
      data: 7,
      firstFlavours: Int32Array.from([1, 2, 0]),
      secondFlavours: Int32Array.from([2, 1, 3]),
    });
  });

  it('should name the kernel and the attribute that is wrong', () => {
    const call = (attrs: tf.NamedAttrMap) => () =>
      checkLuminosityContraction(LUMINOSITY_CONTRACTION_KERNEL, { pdf: PDF, fk: FK }, attrs);
    expect(call({ firstFlavours: [1, 2, 0] })).toThrow(InvalidArgumentError);
    expect(call({ firstFlavours: [1, 2, 0] })).toThrow(
      'PartonfitLuminosityContraction attribute secondFlavours: expected a list of flavour indices, one per channel',
    );
    expect(call({ firstFlavours: [1, 2.5, 0], secondFlavours: [2, 1, 3] })).toThrow(
      'PartonfitLuminosityContraction attribute firstFlavours: expected a list of flavour indices',
    );
    expect(call({ firstFlavours: [1, 2, 0], secondFlavours: [2, 14, 3] })).toThrow(
      'PartonfitLuminosityContraction attribute secondFlavours: channel 1 names flavour 14, outside [0, 14)',
    );
    expect(call({ firstFlavours: [1, 2, 0], secondFlavours: [2, 1] })).toThrow(
      'secondFlavours: expected one flavour per channel (3), got 2',
    );
  });

  it('should name the input whose shape does not fit', () => {
    const call = (inputs: { pdf: tf.TensorInfo; fk: tf.TensorInfo; dy?: tf.TensorInfo }) => () =>
      checkLuminosityContraction(LUMINOSITY_CONTRACTION_GRAD_KERNEL, inputs, ATTRS);
    expect(call({ pdf: info([5, 4]), fk: FK })).toThrow(ShapeError);
    expect(call({ pdf: PDF, fk: info([47, 7]) })).toThrow(
      'PartonfitLuminosityContractionGrad: fk: expected shape [48, *] (channel · x1 · x2, data) for 3 channels and 4 x points, got [47, 7]',
    );
    expect(call({ pdf: PDF, fk: FK, dy: info([5, 6]) })).toThrow(
      'PartonfitLuminosityContractionGrad: dy: expected shape [5, 7] (replicas, data), got [5, 6]',
    );
  });

  it('should find no fused kernels on the plain JavaScript backend', async () => {
    await initBackend('cpu');
    expect(hasFusedLuminosityKernels()).toBe(false);
  });
});
