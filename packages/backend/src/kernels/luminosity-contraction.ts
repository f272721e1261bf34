import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';

/**
 * Kernel name of the fused forward hadronic FK contraction, which a backend may register
 * (`@partonfit/backend-native` does) to contract without forming the luminosity:
 * `T[r, n] = Σ_{c, a, b} pdf[r, a, f₁(c)] · pdf[r, b, f₂(c)] · fk[(c · x + a) · x + b, n]`.
 *
 * Inputs {@link LuminosityContractionInputs}, attributes {@link LuminosityContractionAttrs},
 * output `(replicas, data)`.
 */
export const LUMINOSITY_CONTRACTION_KERNEL = 'PartonfitLuminosityContraction';

/**
 * Kernel name of the fused backward of {@link LUMINOSITY_CONTRACTION_KERNEL}: inputs
 * {@link LuminosityContractionGradInputs}, the same attributes, outputs `[dPdf]`
 * `(replicas, x, flavour)`, the gradient of `Σ dy ⊙ T` with respect to the PDF.
 */
export const LUMINOSITY_CONTRACTION_GRAD_KERNEL = 'PartonfitLuminosityContractionGrad';

/** The inputs of {@link LUMINOSITY_CONTRACTION_KERNEL}. */
export interface LuminosityContractionInputs {
  /** x·f of every replica, `(replicas, x, flavour)`. */
  readonly pdf: tf.TensorInfo;
  /** The FK table channel by channel, `(channel · x1 · x2, data)`. */
  readonly fk: tf.TensorInfo;
}

/** The inputs of {@link LUMINOSITY_CONTRACTION_GRAD_KERNEL}. */
export interface LuminosityContractionGradInputs extends LuminosityContractionInputs {
  /** The upstream gradient of the output, `(replicas, data)`. */
  readonly dy: tf.TensorInfo;
}

/** The attributes of both luminosity kernels: each channel's two flavours. */
export type LuminosityContractionAttrs = {
  /** `(channel)`: the first proton's flavour of each channel, an index into the PDF's last axis. */
  readonly firstFlavours: number[];
  /** `(channel)`: the second proton's flavour of each channel. */
  readonly secondFlavours: number[];
};

/** The sizes of a luminosity contraction and its channels, checked to fit together. */
export interface LuminosityContraction {
  readonly replicas: number;
  readonly x: number;
  readonly flavours: number;
  readonly data: number;
  /** `(channel)`: each channel's first flavour. */
  readonly firstFlavours: Int32Array;
  /** `(channel)`: each channel's second flavour. */
  readonly secondFlavours: Int32Array;
}

/** The attributes of the luminosity kernels for channels given as flavour pairs. */
export function luminosityContractionAttrs(
  channels: readonly (readonly [number, number])[],
): LuminosityContractionAttrs {
  return {
    firstFlavours: channels.map(([first]) => first),
    secondFlavours: channels.map(([, second]) => second),
  };
}

/** One flavour-list attribute of `kernel`, checked: integers in `[0, flavours)`. */
function flavourList(
  kernel: string,
  attrs: tf.NamedAttrMap,
  name: keyof LuminosityContractionAttrs,
  flavours: number,
): Int32Array {
  const list = attrs[name];
  if (!Array.isArray(list) || !list.every((flavour) => Number.isInteger(flavour))) {
    throw new InvalidArgumentError({
      argument: `${kernel} attribute ${name}`,
      problem: 'expected a list of flavour indices, one per channel',
    });
  }
  const outside = (list as number[]).findIndex((flavour) => flavour < 0 || flavour >= flavours);
  if (outside !== -1) {
    throw new InvalidArgumentError({
      argument: `${kernel} attribute ${name}`,
      problem: `channel ${outside} names flavour ${String(list[outside])}, outside [0, ${flavours})`,
    });
  }
  return Int32Array.from(list as number[]);
}

/**
 * The sizes and channels of a call of a luminosity kernel, read from its inputs and attributes
 * and checked to fit together — for the backends that implement the kernels, before they touch
 * any memory.
 *
 * @param kernel - the kernel's name, for the messages
 * @param inputs - `pdf` `(replicas, x, flavour)` and `fk` `(channel · x · x, data)`, and for the
 *   gradient `dy` `(replicas, data)`
 * @param attrs - the call's attributes ({@link LuminosityContractionAttrs})
 * @throws InvalidArgumentError naming the kernel and the attribute that is missing, not a list
 *   of integers, or names a flavour the PDF does not have
 * @throws ShapeError naming the kernel and the input whose shape does not fit
 */
export function checkLuminosityContraction(
  kernel: string,
  inputs: LuminosityContractionInputs & { readonly dy?: tf.TensorInfo },
  attrs: tf.NamedAttrMap,
): LuminosityContraction {
  const { pdf, fk, dy } = inputs;
  if (pdf.shape.length !== 3) {
    throw new ShapeError({
      quantity: `${kernel}: pdf`,
      expected: [null, null, null],
      actual: pdf.shape,
      axes: '(replicas, x, flavour)',
    });
  }
  const [replicas, x, flavours] = pdf.shape;
  const firstFlavours = flavourList(kernel, attrs, 'firstFlavours', flavours);
  const secondFlavours = flavourList(kernel, attrs, 'secondFlavours', flavours);
  const channels = firstFlavours.length;
  if (secondFlavours.length !== channels) {
    throw new InvalidArgumentError({
      argument: `${kernel} attribute secondFlavours`,
      problem: `expected one flavour per channel (${channels}), got ${secondFlavours.length}`,
    });
  }
  if (fk.shape.length !== 2 || fk.shape[0] !== channels * x * x) {
    throw new ShapeError({
      quantity: `${kernel}: fk`,
      expected: [channels * x * x, null],
      actual: fk.shape,
      axes: `(channel · x1 · x2, data) for ${channels} channels and ${x} x points`,
    });
  }
  const data = fk.shape[1];
  if (
    dy !== undefined &&
    (dy.shape.length !== 2 || dy.shape[0] !== replicas || dy.shape[1] !== data)
  ) {
    throw new ShapeError({
      quantity: `${kernel}: dy`,
      expected: [replicas, data],
      actual: dy.shape,
      axes: '(replicas, data)',
    });
  }
  return { replicas, x, flavours, data, firstFlavours, secondFlavours };
}

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
 * Runs {@link LUMINOSITY_CONTRACTION_KERNEL} on the active backend (which must register it).
 *
 * @param inputs - `pdf` `(replicas, x, flavour)`, `fk` `(channel · x1 · x2, data)`
 * @returns `(replicas, data)`
 */
export function runLuminosityContraction(
  inputs: { readonly pdf: tf.Tensor3D; readonly fk: tf.Tensor2D },
  attrs: LuminosityContractionAttrs,
): tf.Tensor2D {
  return tf
    .engine()
    .runKernel<tf.Tensor2D>(
      LUMINOSITY_CONTRACTION_KERNEL,
      { pdf: inputs.pdf, fk: inputs.fk },
      { ...attrs },
    );
}

/**
 * Runs {@link LUMINOSITY_CONTRACTION_GRAD_KERNEL} on the active backend (which must register it).
 *
 * @param inputs - `dy` `(replicas, data)`, `pdf` `(replicas, x, flavour)`, `fk`
 * @returns `[dPdf]`, `(replicas, x, flavour)`
 */
export function runLuminosityContractionGrad(
  inputs: { readonly dy: tf.Tensor; readonly pdf: tf.Tensor; readonly fk: tf.Tensor },
  attrs: LuminosityContractionAttrs,
): tf.Tensor[] {
  return tf
    .engine()
    .runKernel<tf.Tensor[]>(
      LUMINOSITY_CONTRACTION_GRAD_KERNEL,
      { dy: inputs.dy, pdf: inputs.pdf, fk: inputs.fk },
      { ...attrs },
    );
}
