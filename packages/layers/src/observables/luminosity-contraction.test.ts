import * as tf from '@tensorflow/tfjs-core';
import { ShapeError } from '@partonfit/core';
import { expect, it } from 'vitest';
import { expectClose, randomArray, tensorGrowth, toFloat32 } from '../ops/numeric.fixture.js';
import { describeOnBackends } from '../testing/backends.fixture.js';
import { hasFusedLuminosityKernels, luminosityContraction } from './luminosity-contraction.js';

interface Sizes {
  readonly replicas: number;
  readonly xPoints: number;
  readonly channels: number;
  readonly ndata: number;
}

/** Float64 loops of the output, of Σ dy ⊙ output's gradients, and of the rounding scales. */
function reference(
  sizes: Sizes,
  first: Float32Array,
  second: Float32Array,
  fk: Float32Array,
  dy: Float32Array,
) {
  const { replicas, xPoints, channels, ndata } = sizes;
  const output = new Float64Array(replicas * ndata);
  const outputScale = new Float64Array(replicas * ndata);
  const dFirst = new Float64Array(replicas * xPoints * channels);
  const dSecond = new Float64Array(replicas * xPoints * channels);
  const gradientScale = new Float64Array(replicas * xPoints * channels);
  for (let r = 0; r < replicas; r++) {
    for (let c = 0; c < channels; c++) {
      for (let a = 0; a < xPoints; a++) {
        for (let b = 0; b < xPoints; b++) {
          const firstIndex = (r * xPoints + a) * channels + c;
          const secondIndex = (r * xPoints + b) * channels + c;
          const f1 = first[firstIndex];
          const f2 = second[secondIndex];
          const row = ((c * xPoints + a) * xPoints + b) * ndata;
          for (let n = 0; n < ndata; n++) {
            const term = f1 * f2 * fk[row + n];
            output[r * ndata + n] += term;
            outputScale[r * ndata + n] += Math.abs(term);
            const weight = dy[r * ndata + n] * fk[row + n];
            dFirst[firstIndex] += weight * f2;
            dSecond[secondIndex] += weight * f1;
            gradientScale[firstIndex] += Math.abs(weight * f2);
            gradientScale[secondIndex] += Math.abs(weight * f1);
          }
        }
      }
    }
  }
  return { output, outputScale, dFirst, dSecond, gradientScale };
}

function randomInputs(sizes: Sizes, seed: number) {
  const { replicas, xPoints, channels, ndata } = sizes;
  const factors = replicas * xPoints * channels;
  return {
    first: toFloat32(randomArray(factors, seed)),
    second: toFloat32(randomArray(factors, seed + 1)),
    fk: toFloat32(randomArray(xPoints * xPoints * channels * ndata, seed + 2, 0, 1)),
    dy: toFloat32(randomArray(replicas * ndata, seed + 3)),
  };
}

/** Output and gradients of the contraction on tensors of the given inputs. */
function contract(sizes: Sizes, inputs: ReturnType<typeof randomInputs>, keepTranspose: boolean) {
  const { replicas, xPoints, channels, ndata } = sizes;
  const factorShape: [number, number, number] = [replicas, xPoints, channels];
  const first = tf.tensor3d(inputs.first, factorShape);
  const second = tf.tensor3d(inputs.second, factorShape);
  const fk = tf.tensor2d(inputs.fk, [channels * xPoints * xPoints, ndata]);
  const fkTransposed = tf.transpose(fk);
  const dy = tf.tensor2d(inputs.dy, [replicas, ndata]);
  const transposed = keepTranspose ? () => fkTransposed : undefined;
  const output = luminosityContraction(first, second, fk, transposed);
  const [dFirst, dSecond] = tf.grads((f1: tf.Tensor, f2: tf.Tensor) =>
    tf.sum(tf.mul(luminosityContraction(f1 as tf.Tensor3D, f2 as tf.Tensor3D, fk, transposed), dy)),
  )([first, second]);
  const result = {
    shape: output.shape,
    output: output.dataSync(),
    dFirst: dFirst.dataSync(),
    dSecond: dSecond.dataSync(),
  };
  tf.dispose([first, second, fk, fkTransposed, dy, output, dFirst, dSecond]);
  return result;
}

const SHAPES: readonly Sizes[] = [
  { replicas: 3, xPoints: 7, channels: 5, ndata: 4 },
  { replicas: 1, xPoints: 4, channels: 1, ndata: 1 },
  // More replicas than the native kernel's block of rows per channel product at this size.
  { replicas: 37, xPoints: 9, channels: 3, ndata: 6 },
];

describeOnBackends('luminosityContraction', (backend) => {
  it(`should ${backend === 'native' ? '' : 'not '}use the fused kernels`, () => {
    expect(hasFusedLuminosityKernels()).toBe(backend === 'native');
  });

  for (const sizes of SHAPES) {
    for (const keepTranspose of [true, false]) {
      it(`should equal the float64 loop, output and gradients (${Object.values(sizes).join('×')}, FKᵀ ${keepTranspose ? 'kept' : 'recomputed'})`, () => {
        const inputs = randomInputs(sizes, 11);
        const expected = reference(sizes, inputs.first, inputs.second, inputs.fk, inputs.dy);
        const actual = contract(sizes, inputs, keepTranspose);
        expect(actual.shape).toEqual([sizes.replicas, sizes.ndata]);
        expectClose(actual.output, expected.output, 1e-5, expected.outputScale);
        expectClose(actual.dFirst, expected.dFirst, 1e-5, expected.gradientScale);
        expectClose(actual.dSecond, expected.dSecond, 1e-5, expected.gradientScale);
      });
    }
  }

  it('should keep no luminosity for the backward pass', () => {
    const sizes = { replicas: 8, xPoints: 30, channels: 10, ndata: 2 };
    const inputs = randomInputs(sizes, 3);
    const first = tf.tensor3d(inputs.first, [8, 30, 10]);
    const second = tf.tensor3d(inputs.second, [8, 30, 10]);
    const fk = tf.tensor2d(inputs.fk, [10 * 30 * 30, 2]);
    const luminosityBytes = 4 * 8 * 30 * 30 * 10;
    let heldAfterForward = Number.NaN;
    const gradients = tf.grads((f1: tf.Tensor, f2: tf.Tensor) => {
      const before = tf.memory().numBytes;
      const output = luminosityContraction(f1 as tf.Tensor3D, f2 as tf.Tensor3D, fk);
      heldAfterForward = tf.memory().numBytes - before;
      return tf.sum(output);
    })([first, second]);
    expect(heldAfterForward).toBeLessThan(luminosityBytes / 10);
    tf.dispose([first, second, fk, ...gradients]);
  });

  it('should leak no tensors', () => {
    const sizes = SHAPES[0];
    const inputs = randomInputs(sizes, 5);
    const first = tf.tensor3d(inputs.first, [3, 7, 5]);
    const second = tf.tensor3d(inputs.second, [3, 7, 5]);
    const fk = tf.tensor2d(inputs.fk, [5 * 7 * 7, 4]);
    const growth = tensorGrowth(() => {
      const gradients = tf.grads((f1: tf.Tensor, f2: tf.Tensor) =>
        tf.sum(luminosityContraction(f1 as tf.Tensor3D, f2 as tf.Tensor3D, fk)),
      )([first, second]);
      tf.dispose(gradients);
    }, 20);
    expect(growth).toBe(0);
    tf.dispose([first, second, fk]);
  });

  it('should reject factors and FK tables that do not fit together', () => {
    const first = tf.zeros<tf.Rank.R3>([2, 3, 4]);
    const second = tf.zeros<tf.Rank.R3>([2, 3, 5]);
    const fk = tf.zeros<tf.Rank.R2>([4 * 3 * 3, 2]);
    const shortFk = tf.zeros<tf.Rank.R2>([35, 2]);
    expect(() => luminosityContraction(first, second, fk)).toThrow(ShapeError);
    expect(() => luminosityContraction(first, first, shortFk)).toThrow(/channel · x1 · x2/);
    tf.dispose([first, second, fk, shortFk]);
  });
});
