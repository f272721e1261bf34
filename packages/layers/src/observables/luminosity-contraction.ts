import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import {
  hasFusedLuminosityKernels,
  luminosityContractionAttrs,
  runLuminosityContraction,
  runLuminosityContractionGrad,
} from '@partonfit/backend';
import { withCustomGrad } from '../ops/index.js';

/**
 * The hadronic FK contraction of all replicas at once on channels' PDF factors of the two
 * protons, with a custom gradient that keeps no luminosity:
 * `T[r, n] = Σ_{c, a, b} first[r, a, c] · second[r, b, c] · FK[(c, a, b), n]`.
 *
 * The forward moves the channel axis before x, forms the luminosity
 * `(replicas, channel · x1 · x2)`, multiplies it by the FK table and frees it; the backward forms
 * `dL = dY @ FKᵀ` and reduces it against the saved per-channel factors. Only `first` and
 * `second` are kept for the backward, so a fit's memory does not grow with the number of
 * hadronic tables times their luminosities. Tables whose channels pick flavours of one PDF
 * run faster through {@link flavourLuminosityContraction} on a backend with the fused kernels.
 *
 * @param first - the first proton's per-channel factors, `(replicas, x, channel)`
 * @param second - the second proton's per-channel factors, `(replicas, x, channel)`
 * @param fk - the FK table channel by channel, `(channel · x1 · x2, data)`
 * @param fkTransposed - if given, returns `FKᵀ` `(data, channel · x1 · x2)` for the backward
 *   (`dY @ FKᵀ`); otherwise it is computed as `(FK @ dYᵀ)ᵀ`
 * @returns `(replicas, data)`
 * @throws ShapeError when the shapes do not fit together
 */
export function luminosityContraction(
  first: tf.Tensor3D,
  second: tf.Tensor3D,
  fk: tf.Tensor2D,
  fkTransposed?: () => tf.Tensor2D,
): tf.Tensor2D {
  checkShapes(first, second, fk);
  const contraction = withCustomGrad(([firstFactors, secondFactors], save) => {
    save([firstFactors, secondFactors]);
    return {
      value: tf.matMul(luminosity(channelMajor(firstFactors), channelMajor(secondFactors)), fk),
      gradFunc: (dy, saved) => {
        const [savedFirst, savedSecond] = saved as [tf.Tensor3D, tf.Tensor3D];
        return luminosityGradient(dy as tf.Tensor2D, savedFirst, savedSecond, fk, fkTransposed);
      },
    };
  });
  return contraction(first, second) as tf.Tensor2D;
}

/**
 * The hadronic FK contraction of all replicas at once on one PDF, each channel the product of
 * two of its flavours:
 * `T[r, n] = Σ_{c, a, b} pdf[r, a, f₁(c)] · pdf[r, b, f₂(c)] · FK[(c, a, b), n]`.
 *
 * On a backend with the fused kernels ({@link hasFusedLuminosityKernels}) the kernels read the
 * flavours straight from the PDF and return its gradient: no per-channel factors and no
 * luminosity are formed, and only the PDF is kept for the backward. Elsewhere the factors are
 * selected by one-hot products and contracted by {@link luminosityContraction}.
 *
 * @param pdf - `(replicas, x, flavour)`
 * @param channels - each channel's `[first, second]` flavour, indices into the last axis of pdf
 * @param fk - the FK table channel by channel, `(channel · x1 · x2, data)`
 * @returns `(replicas, data)`
 * @throws ShapeError when the shapes do not fit together
 * @throws InvalidArgumentError when a channel names a flavour the PDF does not have
 */
export function flavourLuminosityContraction(
  pdf: tf.Tensor3D,
  channels: readonly (readonly [number, number])[],
  fk: tf.Tensor2D,
): tf.Tensor2D {
  checkFlavours(pdf, channels, fk);
  const attrs = luminosityContractionAttrs(channels);
  if (!hasFusedLuminosityKernels()) {
    return tf.tidy(() =>
      luminosityContraction(
        selectFlavours(pdf, attrs.firstFlavours),
        selectFlavours(pdf, attrs.secondFlavours),
        fk,
      ),
    );
  }
  const contraction = withCustomGrad(([values], save) => {
    save([values]);
    return {
      value: runLuminosityContraction({ pdf: values as tf.Tensor3D, fk }, attrs),
      gradFunc: (dy, [saved]) => runLuminosityContractionGrad({ dy, pdf: saved, fk }, attrs),
    };
  });
  return contraction(pdf) as tf.Tensor2D;
}

/** `factors[r, a, c] = pdf[r, a, flavours[c]]` by a one-hot product, `(replicas, x, channel)`. */
function selectFlavours(pdf: tf.Tensor3D, flavours: readonly number[]): tf.Tensor3D {
  const [replicas, xPoints, pdfFlavours] = pdf.shape;
  const oneHot = new Float32Array(pdfFlavours * flavours.length);
  flavours.forEach((flavour, channel) => (oneHot[flavour * flavours.length + channel] = 1));
  const selection = tf.tensor2d(oneHot, [pdfFlavours, flavours.length]);
  const rows = tf.reshape<tf.Rank.R2>(pdf, [-1, pdfFlavours]);
  return tf.reshape<tf.Rank.R3>(tf.matMul(rows, selection), [replicas, xPoints, flavours.length]);
}

/** `(replicas, x, channel)` → `(replicas, channel, x)`. */
function channelMajor(factors: tf.Tensor): tf.Tensor3D {
  return tf.transpose<tf.Tensor3D>(factors as tf.Tensor3D, [0, 2, 1]);
}

/**
 * `L[r, (c, a, b)] = first[r, c, a] · second[r, c, b]` from channel-major factors,
 * `(replicas, channel · x1 · x2)`.
 */
function luminosity(first: tf.Tensor3D, second: tf.Tensor3D): tf.Tensor2D {
  const [replicas, channels, xPoints] = first.shape;
  const product = tf.mul(
    tf.reshape(first, [replicas, channels, xPoints, 1]),
    tf.reshape(second, [replicas, channels, 1, xPoints]),
  );
  return tf.reshape(product, [replicas, channels * xPoints * xPoints]);
}

/**
 * `[dFirst, dSecond]`, each `(replicas, x, channel)`, from `dL = dY @ FKᵀ`,
 * `(replicas, channel, x1, x2)`.
 */
function luminosityGradient(
  dy: tf.Tensor2D,
  first: tf.Tensor3D,
  second: tf.Tensor3D,
  fk: tf.Tensor2D,
  fkTransposed: (() => tf.Tensor2D) | undefined,
): tf.Tensor[] {
  const [replicas, xPoints, channels] = first.shape;
  const flat =
    fkTransposed !== undefined
      ? tf.matMul(dy, fkTransposed())
      : tf.transpose(tf.matMul(fk, tf.transpose(dy)));
  const dLuminosity = tf.reshape(flat, [replicas, channels, xPoints, xPoints]);
  const dFirst = tf.sum(
    tf.mul(dLuminosity, tf.reshape(channelMajor(second), [replicas, channels, 1, xPoints])),
    3,
  );
  const dSecond = tf.sum(
    tf.mul(dLuminosity, tf.reshape(channelMajor(first), [replicas, channels, xPoints, 1])),
    2,
  );
  return [channelMajor(dFirst), channelMajor(dSecond)];
}

function checkFlavours(
  pdf: tf.Tensor3D,
  channels: readonly (readonly [number, number])[],
  fk: tf.Tensor2D,
): void {
  if (pdf.rank !== 3) {
    throw new ShapeError({
      quantity: 'flavourLuminosityContraction: pdf',
      expected: [null, null, null],
      actual: pdf.shape,
      axes: '(replicas, x, flavour)',
    });
  }
  const [, xPoints, flavours] = pdf.shape;
  channels.forEach((pair, channel) => {
    if (!pair.every((flavour) => Number.isInteger(flavour) && flavour >= 0 && flavour < flavours)) {
      throw new InvalidArgumentError({
        argument: `flavourLuminosityContraction: channels[${channel}]`,
        problem: `[${pair.join(', ')}] names a flavour outside the PDF's ${flavours}`,
      });
    }
  });
  if (fk.rank !== 2 || fk.shape[0] !== channels.length * xPoints * xPoints) {
    throw new ShapeError({
      quantity: 'flavourLuminosityContraction: fk',
      expected: [channels.length * xPoints * xPoints, null],
      actual: fk.shape,
      axes: '(channel · x1 · x2, data)',
    });
  }
}

function checkShapes(first: tf.Tensor3D, second: tf.Tensor3D, fk: tf.Tensor2D): void {
  if (first.rank !== 3 || second.rank !== 3 || second.shape.join() !== first.shape.join()) {
    throw new ShapeError({
      quantity: 'luminosityContraction: second',
      expected: first.shape,
      actual: second.shape,
      axes: '(replicas, x, channel), as first',
    });
  }
  const [, xPoints, channels] = first.shape;
  if (fk.rank !== 2 || fk.shape[0] !== channels * xPoints * xPoints) {
    throw new ShapeError({
      quantity: 'luminosityContraction: fk',
      expected: [channels * xPoints * xPoints, null],
      actual: fk.shape,
      axes: '(channel · x1 · x2, data)',
    });
  }
}
