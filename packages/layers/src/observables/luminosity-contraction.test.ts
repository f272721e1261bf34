import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { expect, it } from 'vitest';
import { expectClose, randomArray, tensorGrowth, toFloat32 } from '../ops/numeric.fixture.js';
import { cyclingChannels, describeOnBackends } from '@partonfit/testing';
import { hasFusedLuminosityKernels } from '@partonfit/backend';
import { flavourLuminosityContraction, luminosityContraction } from './luminosity-contraction.js';

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

interface FlavourSizes {
  readonly replicas: number;
  readonly xPoints: number;
  readonly flavours: number;
  readonly ndata: number;
  readonly channels: readonly (readonly [number, number])[];
}

/**
 * The float64 loop of {@link reference} on the channels' factors picked from the PDF, with the
 * factors' gradients summed back onto the flavours they came from.
 */
function flavourReference(
  sizes: FlavourSizes,
  pdf: Float32Array,
  fk: Float32Array,
  dy: Float32Array,
) {
  const { replicas, xPoints, flavours, ndata, channels } = sizes;
  const factorSizes = { replicas, xPoints, channels: channels.length, ndata };
  const pick = (side: 0 | 1) =>
    Float32Array.from({ length: replicas * xPoints * channels.length }, (_, i) => {
      const channel = i % channels.length;
      const point = Math.floor(i / channels.length);
      return pdf[point * flavours + channels[channel][side]];
    });
  const factors = reference(factorSizes, pick(0), pick(1), fk, dy);
  const dPdf = new Float64Array(replicas * xPoints * flavours);
  const dPdfScale = new Float64Array(replicas * xPoints * flavours);
  for (let point = 0; point < replicas * xPoints; point++) {
    channels.forEach(([first, second], channel) => {
      const i = point * channels.length + channel;
      dPdf[point * flavours + first] += factors.dFirst[i];
      dPdf[point * flavours + second] += factors.dSecond[i];
      dPdfScale[point * flavours + first] += factors.gradientScale[i];
      dPdfScale[point * flavours + second] += factors.gradientScale[i];
    });
  }
  return { output: factors.output, outputScale: factors.outputScale, dPdf, dPdfScale };
}

const FLAVOUR_SHAPES: readonly FlavourSizes[] = [
  { replicas: 3, xPoints: 6, flavours: 4, ndata: 5, channels: cyclingChannels(4, 7) },
  { replicas: 1, xPoints: 3, flavours: 2, ndata: 1, channels: [[1, 1]] },
  // Every ordered pair of 5 flavours but one unused flavour; replicas over two 16-lane vectors
  // and an 8-lane one of the native kernels.
  { replicas: 37, xPoints: 8, flavours: 6, ndata: 13, channels: cyclingChannels(5, 25) },
];

describeOnBackends('flavourLuminosityContraction', () => {
  for (const sizes of FLAVOUR_SHAPES) {
    const { replicas, xPoints, flavours, ndata, channels } = sizes;
    it(`should equal the float64 loop, output and PDF gradient (${replicas}×${xPoints}×${flavours}, ${channels.length} channels, ${ndata} points)`, () => {
      const pdfValues = toFloat32(randomArray(replicas * xPoints * flavours, 21));
      const fkValues = toFloat32(
        randomArray(channels.length * xPoints * xPoints * ndata, 22, 0, 1),
      );
      const dyValues = toFloat32(randomArray(replicas * ndata, 23));
      const expected = flavourReference(sizes, pdfValues, fkValues, dyValues);
      const pdf = tf.tensor3d(pdfValues, [replicas, xPoints, flavours]);
      const fk = tf.tensor2d(fkValues, [channels.length * xPoints * xPoints, ndata]);
      const dy = tf.tensor2d(dyValues, [replicas, ndata]);
      const output = flavourLuminosityContraction(pdf, channels, fk);
      const dPdf = tf.grad((p: tf.Tensor) =>
        tf.sum(tf.mul(flavourLuminosityContraction(p as tf.Tensor3D, channels, fk), dy)),
      )(pdf);
      expect(output.shape).toEqual([replicas, ndata]);
      expect(dPdf.shape).toEqual([replicas, xPoints, flavours]);
      expectClose(output.dataSync(), expected.output, 1e-5, expected.outputScale);
      expectClose(dPdf.dataSync(), expected.dPdf, 1e-5, expected.dPdfScale);
      tf.dispose([pdf, fk, dy, output, dPdf]);
    });
  }

  it('should keep no luminosity, nor per-channel factors with the fused kernels', () => {
    const sizes = {
      replicas: 8,
      xPoints: 30,
      flavours: 14,
      ndata: 2,
      channels: cyclingChannels(14, 10),
    };
    const pdf = tf.tensor3d(toFloat32(randomArray(8 * 30 * 14, 3)), [8, 30, 14]);
    const fk = tf.tensor2d(toFloat32(randomArray(10 * 30 * 30 * 2, 4, 0, 1)), [10 * 30 * 30, 2]);
    const luminosityBytes = 4 * 8 * 30 * 30 * 10;
    let heldAfterForward = Number.NaN;
    const dPdf = tf.grad((p: tf.Tensor) => {
      const before = tf.memory().numBytes;
      const output = flavourLuminosityContraction(p as tf.Tensor3D, sizes.channels, fk);
      heldAfterForward = tf.memory().numBytes - before;
      return tf.sum(output);
    })(pdf);
    // Fused: at most a copy of the PDF saved for the backward and the output; the two factors
    // alone would take 2 · 4 · 8 · 30 · 10 bytes.
    const pdfAndOutputBytes = 4 * (8 * 30 * 14 + 8 * 2);
    expect(heldAfterForward).toBeLessThanOrEqual(
      hasFusedLuminosityKernels() ? pdfAndOutputBytes : luminosityBytes / 2,
    );
    tf.dispose([pdf, fk, dPdf]);
  });

  it('should leak no tensors in a forward and a backward pass', () => {
    const channels = cyclingChannels(4, 7);
    const pdf = tf.tensor3d(toFloat32(randomArray(3 * 6 * 4, 5)), [3, 6, 4]);
    const fk = tf.tensor2d(toFloat32(randomArray(7 * 6 * 6 * 5, 6)), [7 * 6 * 6, 5]);
    const growth = tensorGrowth(() => {
      const output = flavourLuminosityContraction(pdf, channels, fk);
      const dPdf = tf.grad((p: tf.Tensor) =>
        tf.sum(flavourLuminosityContraction(p as tf.Tensor3D, channels, fk)),
      )(pdf);
      tf.dispose([output, dPdf]);
    }, 20);
    expect(growth).toBe(0);
    tf.dispose([pdf, fk]);
  });

  it('should reject flavours the PDF does not have and FK tables that do not fit', () => {
    const pdf = tf.zeros<tf.Rank.R3>([2, 3, 4]);
    const fk = tf.zeros<tf.Rank.R2>([2 * 3 * 3, 1]);
    expect(() =>
      flavourLuminosityContraction(
        pdf,
        [
          [0, 1],
          [2, 4],
        ],
        fk,
      ),
    ).toThrow(InvalidArgumentError);
    expect(() =>
      flavourLuminosityContraction(
        pdf,
        [
          [0, 1],
          [2, 4],
        ],
        fk,
      ),
    ).toThrow(/channels\[1\]: \[2, 4\] names a flavour outside the PDF's 4/);
    expect(() => flavourLuminosityContraction(pdf, [[0, 1]], fk)).toThrow(ShapeError);
    expect(() => flavourLuminosityContraction(pdf, [[0, 1]], fk)).toThrow(/channel · x1 · x2/);
    tf.dispose([pdf, fk]);
  });
});
