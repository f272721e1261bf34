import * as tf from '@tensorflow/tfjs-core';
import { ShapeError } from '@partonfit/core';
import { withCustomGrad } from '../ops/index.js';

/**
 * Name of the optional fused kernel of the forward luminosity contraction. A backend may
 * register it (`@partonfit/backend-native` does) to contract without forming the luminosity:
 *
 * - inputs `first` and `second`, `(replicas, x, channel)`, and `fk`, `(channel · x1 · x2, data)`
 *   with row `(c · x + a) · x + b`;
 * - output `(replicas, data)`: `Σ_{c, a, b} first[r, a, c] · second[r, b, c] · fk[(c, a, b), n]`.
 */
export const LUMINOSITY_CONTRACTION_KERNEL = 'PartonfitLuminosityContraction';

/**
 * Name of the optional fused kernel of the backward luminosity contraction: inputs `dy`
 * `(replicas, data)`, `first`, `second` and `fk` as in {@link LUMINOSITY_CONTRACTION_KERNEL};
 * outputs the gradients `[dFirst, dSecond]`, each `(replicas, x, channel)`, of `Σ dy ⊙ output`.
 */
export const LUMINOSITY_CONTRACTION_GRAD_KERNEL = 'PartonfitLuminosityContractionGrad';

/** Whether the active backend registers both fused luminosity kernels. */
export function hasFusedLuminosityKernels(): boolean {
  const backend = tf.getBackend();
  const registered = (name: string) =>
    (tf.getKernel(name, backend) as tf.KernelConfig | undefined) !== undefined;
  return (
    registered(LUMINOSITY_CONTRACTION_KERNEL) && registered(LUMINOSITY_CONTRACTION_GRAD_KERNEL)
  );
}

/**
 * The hadronic FK contraction of all replicas at once, with a custom gradient that keeps no
 * luminosity:
 * `T[r, n] = Σ_{c, a, b} first[r, a, c] · second[r, b, c] · FK[(c, a, b), n]`.
 *
 * On a backend with the fused kernels ({@link hasFusedLuminosityKernels}) the luminosity is
 * never formed. Otherwise the forward moves the channel axis before x, forms the luminosity
 * `(replicas, channel · x1 · x2)`, multiplies it
 * by the FK table and frees it; the backward forms `dL = dY @ FKᵀ` and reduces it against the
 * saved per-channel factors. Either way only `first` and `second` are kept for the backward, so
 * a fit's memory does not grow with the number of hadronic tables times their luminosities.
 *
 * @param first - the first proton's per-channel factors, `(replicas, x, channel)`
 * @param second - the second proton's per-channel factors, `(replicas, x, channel)`
 * @param fk - the FK table channel by channel, `(channel · x1 · x2, data)`
 * @param fkTransposed - if given, returns `FKᵀ` `(data, channel · x1 · x2)` for the generic
 *   backward (`dY @ FKᵀ`); otherwise it is computed as `(FK @ dYᵀ)ᵀ`
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
  const fused = hasFusedLuminosityKernels();
  const contraction = withCustomGrad(([firstFactors, secondFactors], save) => {
    save([firstFactors, secondFactors]);
    return {
      value: fused
        ? tf.engine().runKernel<tf.Tensor2D>(LUMINOSITY_CONTRACTION_KERNEL, {
            first: firstFactors,
            second: secondFactors,
            fk,
          })
        : tf.matMul(luminosity(channelMajor(firstFactors), channelMajor(secondFactors)), fk),
      gradFunc: (dy, saved) => {
        const [savedFirst, savedSecond] = saved as [tf.Tensor3D, tf.Tensor3D];
        if (fused) {
          return tf.engine().runKernel<tf.Tensor[]>(LUMINOSITY_CONTRACTION_GRAD_KERNEL, {
            dy,
            first: savedFirst,
            second: savedSecond,
            fk,
          });
        }
        return luminosityGradient(dy as tf.Tensor2D, savedFirst, savedSecond, fk, fkTransposed);
      },
    };
  });
  return contraction(first, second) as tf.Tensor2D;
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
