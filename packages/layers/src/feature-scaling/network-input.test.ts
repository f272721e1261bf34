import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { ShapeError } from '@partonfit/core';
import { expect, it } from 'vitest';
import {
  expectClose,
  randomArray,
  tensorGrowth,
  toFloat32,
  values,
} from '../ops/numeric.fixture.js';
import { describeOnBackends } from '@partonfit/testing';
import { featureScaler } from './feature-scaler.js';
import { logXFeatures, scaledXFeatures, xColumn } from './network-input.js';
import { SubtractReference, subtractReference } from './subtract-reference.js';
import { rebuilt } from '../multi-dense/layer-testing.fixture.js';

describeOnBackends('network input and SubtractReference', () => {
  it('should give [x, log x], [s(x)] and x columns with logs taken in float64', () => {
    const x = [1e-9, 0.003, 0.5, 1];
    expect(logXFeatures(x).shape).toEqual([4, 2]);
    expect(Array.from(logXFeatures(x).dataSync())).toEqual(
      Array.from(Float32Array.from(x.flatMap((value) => [value, Math.log(value)]))),
    );
    const scaler = featureScaler([x], 3);
    expect(Array.from(scaledXFeatures(scaler, x).dataSync())).toEqual(
      Array.from(Float32Array.from(x.map((value) => scaler.scale(value)))),
    );
    expect(xColumn(x).shape).toEqual([4, 1]);
    expect(() => logXFeatures([0.1, 0])).toThrow(/x\[1\]: expected an x in \(0, 1\]/);
    expect(() => xColumn([])).toThrow(/no x points/);
  });

  it('should subtract the reference point, forward and gradient, as a float64 loop', () => {
    const [replicas, points, flavours, reference] = [2, 6, 3, 5];
    const output = toFloat32(randomArray(replicas * points * flavours, 1));
    const upstream = toFloat32(randomArray(replicas * points * flavours, 2));
    const layer = subtractReference({ referencePoint: reference });
    const input = tf.tensor3d(output, [replicas, points, flavours]);
    const at = (r: number, p: number, f: number) => (r * points + p) * flavours + f;
    const expected = new Float64Array(output.length);
    const expectedGrad = Float64Array.from(upstream);
    for (let r = 0; r < replicas; r++) {
      for (let f = 0; f < flavours; f++) {
        for (let p = 0; p < points; p++) {
          expected[at(r, p, f)] = output[at(r, p, f)] - output[at(r, reference, f)];
          expectedGrad[at(r, reference, f)] -= upstream[at(r, p, f)];
        }
      }
    }
    const gradient = tf.grad((nn: tf.Tensor) =>
      tf.sum(
        tf.mul(layer.apply(nn) as tf.Tensor, tf.tensor3d(upstream, [replicas, points, flavours])),
      ),
    )(input);
    expectClose(values(layer.apply(input) as tf.Tensor), expected, 1e-6);
    expectClose(values(gradient), expectedGrad, 1e-6);
    const growth = tensorGrowth(() => {
      tf.grad((nn: tf.Tensor) => tf.sum(layer.apply(nn) as tf.Tensor))(input).dispose();
    });
    expect(growth).toBe(0);
  });

  it('should work in a functional model, rebuild from its config and reject a short input', () => {
    const layer = subtractReference({ referencePoint: 2 });
    const input = tfl.input({ batchShape: [2, null, 8] });
    const model = tfl.model({ inputs: input, outputs: layer.apply(input) as tfl.SymbolicTensor });
    const nn = tf.tensor3d(toFloat32(randomArray(2 * 4 * 8, 3)), [2, 4, 8]);
    const copy = rebuilt(layer, SubtractReference);
    expect(values(copy.apply(nn) as tf.Tensor)).toEqual(values(model.apply(nn) as tf.Tensor));
    expect(() => layer.apply(tf.zeros([2, 2, 8]))).toThrow(ShapeError);
    expect(() => subtractReference({ referencePoint: -1 })).toThrow(/referencePoint/);
  });
});
