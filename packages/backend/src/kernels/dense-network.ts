import * as tf from '@tensorflow/tfjs-core';
import { ACTIVATIONS, InvalidArgumentError, ShapeError } from '@partonfit/core';

/**
 * Kernel name of a whole stack of per-replica dense layers, which a backend may register
 * (`@partonfit/backend-native` does) so that a network's forward pass is one kernel instead of
 * three to twelve per layer. For every replica r and layer l, with h₀ the input:
 *
 * ```text
 * z_l = h_{l-1}[r] @ kernel_l[r] + bias_l[r]      (replicas, points, units_l)
 * h_l = a_l = activation_{l,r}(z_l)
 * ```
 *
 * each replica with its own activation per layer, with the numbers of the element-wise kernels
 * of the same names. A replica may be narrower than a layer (`widths`): it then reads only the
 * first `widths[l][r]` units of its kernel and bias block, and its other units are 0 with
 * gradient 0, as a network of its own widths computes. It may pass a layer through
 * (`passThrough`): its output there is its input. Replicas never mix.
 *
 * Inputs {@link DenseNetworkInputs} (`input`, then `kernel0`, `bias0`, `kernel1`, …),
 * attributes {@link DenseNetworkAttrs}; outputs `[output (replicas, points, units_last), tape]`,
 * where the tape has room for every layer's z and a, flat, for {@link DENSE_NETWORK_GRAD_KERNEL}:
 * it holds what that kernel reads (the native backend leaves z unwritten where the activation's
 * derivative needs only a, and both for a linear last layer), so its other values are
 * unspecified.
 */
export const DENSE_NETWORK_KERNEL = 'PartonfitDenseNetwork';

/**
 * Kernel name of the gradient of {@link DENSE_NETWORK_KERNEL}: inputs `outputGradient`
 * `(replicas, points, units_last)`, `input`, `kernel0`, `kernel1`, … and the forward's `tape`;
 * the same attributes; outputs `[input gradient, kernel0 gradient, bias0 gradient, kernel1
 * gradient, …]`, each of its tensor's shape. The activations' derivatives are those of tfjs'
 * gradients of the element-wise operations (tanh: 1 − a², sigmoid: a(1 − a), …), in float32.
 */
export const DENSE_NETWORK_GRAD_KERNEL = 'PartonfitDenseNetworkGrad';

/**
 * The activations the network kernels know, the runcard's (`ACTIVATIONS` of `@partonfit/core`);
 * an activation's code is its index here.
 */
export const DENSE_ACTIVATIONS = ACTIVATIONS;

/** An activation of {@link DENSE_ACTIVATIONS}. */
export type DenseActivation = (typeof DENSE_ACTIVATIONS)[number];

/** The inputs of {@link DENSE_NETWORK_KERNEL}, float32. */
export interface DenseNetworkInputs {
  /** `(points, in)` shared by every replica, or `(replicas, points, in)`. */
  readonly input: tf.TensorInfo;
  /** Per layer `(replicas, in_l, units_l)`, where in_l is the previous layer's units. */
  readonly kernels: readonly tf.TensorInfo[];
  /** Per layer `(replicas, 1, units_l)`; absent for the gradient kernel, which reads none. */
  readonly biases?: readonly tf.TensorInfo[];
}

/** The attributes of both network kernels. */
export type DenseNetworkAttrs = {
  /** `(layers · replicas)`, layer-major: the code of replica r's activation of layer l. */
  readonly activations: number[];
  /** `(layers · replicas)`: replica r's own units in layer l; default every layer's units. */
  readonly widths?: number[];
  /** `(layers · replicas)`: 1 where replica r passes layer l through; default none. */
  readonly passThrough?: number[];
  /** The slope of `leaky_relu` below zero. */
  readonly leakyReluAlpha: number;
};

/** A network's sizes, checked to fit together. */
export interface DenseNetwork {
  readonly replicas: number;
  readonly points: number;
  /** Features of the input. */
  readonly inputs: number;
  /** Whether the input is `(points, in)`, shared by every replica. */
  readonly sharedInput: boolean;
  /** Units per layer. */
  readonly units: readonly number[];
  /** The activation codes, as {@link DenseNetworkAttrs.activations}. */
  readonly activations: Int32Array;
  /** Each replica's units per layer, `(layers · replicas)`. */
  readonly widths: Int32Array;
  /** 1 where a replica passes a layer through, `(layers · replicas)`. */
  readonly passThrough: Int32Array;
  readonly leakyReluAlpha: number;
  /** Floats of the tape: room for z and a per layer, each `(replicas, points, units_l)`. */
  readonly tapeSize: number;
}

function shapeError(kernel: string, name: string, expected: number[], actual: number[]) {
  return new ShapeError({
    quantity: `${kernel}: ${name}`,
    expected,
    actual,
    axes: name.startsWith('kernel')
      ? '(replicas, in, units)'
      : name.startsWith('bias')
        ? '(replicas, 1, units)'
        : '(points, in) or (replicas, points, in)',
  });
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((axis, i) => axis === b[i]);
}

/**
 * Checks a network's inputs and attributes: every tensor float32, each layer's kernel reading
 * the previous layer's units, one activation code, width and pass-through flag per layer and
 * replica, each width within its layer and a layer passed through as wide as its input.
 *
 * @throws ShapeError for a misshapen tensor; InvalidArgumentError for another dtype, an
 *   unknown activation code or a width or pass-through that does not fit
 */
export function checkDenseNetwork(
  kernel: string,
  inputs: DenseNetworkInputs,
  attrs: tf.NamedAttrMap,
): DenseNetwork {
  const named = [
    ['input', inputs.input],
    ...inputs.kernels.map((tensor, l) => [`kernel${l}`, tensor] as const),
    ...(inputs.biases ?? []).map((tensor, l) => [`bias${l}`, tensor] as const),
  ] as const;
  for (const [name, tensor] of named) {
    if (tensor.dtype !== 'float32') {
      throw new InvalidArgumentError({
        argument: `${kernel}: ${name}`,
        problem: `expected a float32 tensor, got ${tensor.dtype}`,
      });
    }
  }
  const layers = inputs.kernels.length;
  const first = inputs.kernels[0]?.shape ?? [];
  const replicas = first[0] ?? 0;
  const { shape } = inputs.input;
  const sharedInput = shape.length === 2;
  const [points = 0, features = 0] = sharedInput ? shape : shape.slice(1);
  if (layers === 0 || (inputs.biases !== undefined && inputs.biases.length !== layers)) {
    throw new InvalidArgumentError({
      argument: `${kernel}: kernels, biases`,
      problem: `expected one kernel and one bias per layer, at least one layer; got ${layers} kernels and ${inputs.biases?.length ?? 0} biases`,
    });
  }
  if (shape.length !== 2 && (shape.length !== 3 || shape[0] !== replicas)) {
    throw shapeError(kernel, 'input', [replicas, points, features], [...shape]);
  }
  const units: number[] = [];
  inputs.kernels.forEach((tensor, l) => {
    const width = tensor.shape[2] ?? 0;
    const expected = [replicas, l === 0 ? features : (units[l - 1] ?? 0), width];
    if (!sameShape(tensor.shape, expected)) {
      throw shapeError(kernel, `kernel${l}`, expected, [...tensor.shape]);
    }
    const bias = inputs.biases?.[l]?.shape;
    if (bias !== undefined && !sameShape(bias, [replicas, 1, width])) {
      throw shapeError(kernel, `bias${l}`, [replicas, 1, width], [...bias]);
    }
    units.push(width);
  });
  const codes = attrs.activations;
  if (
    !Array.isArray(codes) ||
    codes.length !== layers * replicas ||
    !codes.every(
      (code) =>
        typeof code === 'number' &&
        Number.isInteger(code) &&
        code >= 0 &&
        code < DENSE_ACTIVATIONS.length,
    )
  ) {
    throw new InvalidArgumentError({
      argument: `${kernel} attribute activations`,
      problem: `expected ${layers * replicas} codes (layers · replicas) of DENSE_ACTIVATIONS`,
    });
  }
  const alpha = attrs.leakyReluAlpha;
  if (typeof alpha !== 'number' || !Number.isFinite(alpha)) {
    throw new InvalidArgumentError({
      argument: `${kernel} attribute leakyReluAlpha`,
      problem: 'expected a finite number',
    });
  }
  const widths = replicaWidths(kernel, attrs, units, replicas);
  const passThrough = Int32Array.from(
    (attrs.passThrough as number[] | undefined) ?? new Array<number>(layers * replicas).fill(0),
  );
  if (passThrough.length !== layers * replicas) {
    throw new InvalidArgumentError({
      argument: `${kernel} attribute passThrough`,
      problem: `expected ${layers * replicas} flags (layers · replicas), got ${passThrough.length}`,
    });
  }
  passThrough.forEach((passes, cell) => {
    const ownInput = cell < replicas ? features : (widths[cell - replicas] ?? 0);
    if (passes !== 0 && widths[cell] !== ownInput) {
      throw new InvalidArgumentError({
        argument: `${kernel} attribute passThrough`,
        problem: `replica ${cell % replicas} passes layer ${Math.floor(cell / replicas)} through but is ${widths[cell] ?? 0} wide, its input ${ownInput}`,
      });
    }
  });
  return {
    replicas,
    points,
    inputs: features,
    sharedInput,
    units,
    activations: Int32Array.from(codes as number[]),
    widths,
    passThrough,
    leakyReluAlpha: alpha,
    tapeSize: 2 * replicas * points * units.reduce((sum, width) => sum + width, 0),
  };
}

/** Each replica's units per layer from the attributes (default the layers'), checked. */
function replicaWidths(
  kernel: string,
  attrs: tf.NamedAttrMap,
  units: readonly number[],
  replicas: number,
): Int32Array {
  const given = attrs.widths as number[] | undefined;
  const widths = Int32Array.from(
    given ?? units.flatMap((width) => new Array<number>(replicas).fill(width)),
  );
  const fits =
    widths.length === units.length * replicas &&
    widths.every((width, cell) => width >= 1 && width <= (units[Math.floor(cell / replicas)] ?? 0));
  if (!fits) {
    throw new InvalidArgumentError({
      argument: `${kernel} attribute widths`,
      problem: `expected ${units.length * replicas} widths (layers · replicas), each from 1 to its layer's units (${units.join(', ')})`,
    });
  }
  return widths;
}

/** Whether the active backend registers both network kernels. */
export function hasDenseNetworkKernels(): boolean {
  const backend = tf.getBackend();
  return [DENSE_NETWORK_KERNEL, DENSE_NETWORK_GRAD_KERNEL].every(
    (name) => (tf.getKernel(name, backend) as tf.KernelConfig | undefined) !== undefined,
  );
}

/** A network's per-replica settings, each `(layers, replicas)`. */
export interface ReplicaLayers {
  /** Each replica's activation of each layer. */
  readonly activations: readonly (readonly DenseActivation[])[];
  /** Each replica's own units in each layer; default the layer's. */
  readonly widths?: readonly (readonly number[])[];
  /** Where a replica passes a layer through; default nowhere. */
  readonly passThrough?: readonly (readonly boolean[])[];
}

/** The attributes of both kernels for a network's per-replica settings. */
export function denseNetworkAttrs(
  layers: ReplicaLayers,
  leakyReluAlpha: number,
): DenseNetworkAttrs {
  return {
    activations: layers.activations.flatMap((layer) =>
      layer.map((activation) => DENSE_ACTIVATIONS.indexOf(activation)),
    ),
    ...(layers.widths === undefined ? {} : { widths: layers.widths.flat() }),
    ...(layers.passThrough === undefined
      ? {}
      : { passThrough: layers.passThrough.flatMap((layer) => layer.map(Number)) }),
    leakyReluAlpha,
  };
}

function layerInputs(prefix: string, tensors: readonly tf.Tensor[]): Record<string, tf.Tensor> {
  return Object.fromEntries(tensors.map((tensor, l) => [`${prefix}${l}`, tensor]));
}

/**
 * Runs {@link DENSE_NETWORK_KERNEL} on the active backend (check
 * {@link hasDenseNetworkKernels} first).
 *
 * @param input - `(points, in)` or `(replicas, points, in)`
 * @param kernels - per layer `(replicas, in_l, units_l)`
 * @param biases - per layer `(replicas, 1, units_l)`
 * @returns `[output (replicas, points, units_last), tape]`
 */
export function runDenseNetwork(
  input: tf.Tensor,
  kernels: readonly tf.Tensor[],
  biases: readonly tf.Tensor[],
  attrs: DenseNetworkAttrs,
): [tf.Tensor3D, tf.Tensor1D] {
  return tf
    .engine()
    .runKernel(
      DENSE_NETWORK_KERNEL,
      { input, ...layerInputs('kernel', kernels), ...layerInputs('bias', biases) },
      { ...attrs },
    ) as unknown as [tf.Tensor3D, tf.Tensor1D];
}

/**
 * Runs {@link DENSE_NETWORK_GRAD_KERNEL} on the active backend.
 *
 * @param outputGradient - `(replicas, points, units_last)`
 * @returns `[input gradient, kernel0 gradient, bias0 gradient, kernel1 gradient, …]`
 */
export function runDenseNetworkGrad(
  outputGradient: tf.Tensor,
  input: tf.Tensor,
  kernels: readonly tf.Tensor[],
  tape: tf.Tensor,
  attrs: DenseNetworkAttrs,
): tf.Tensor[] {
  return tf
    .engine()
    .runKernel(
      DENSE_NETWORK_GRAD_KERNEL,
      { outputGradient, input, ...layerInputs('kernel', kernels), tape },
      { ...attrs },
    ) as unknown as tf.Tensor[];
}

/**
 * The inputs of a network kernel from its named inputs (`input`, `kernel0`, `bias0`, …), for a
 * backend's implementation; `biases` only where the inputs have them.
 */
export function denseNetworkInputs(inputs: tf.NamedTensorInfoMap): DenseNetworkInputs {
  const input = inputs.input;
  if (input === undefined) {
    throw new InvalidArgumentError({ argument: 'input', problem: 'the network needs an input' });
  }
  const kernels: tf.TensorInfo[] = [];
  const biases: tf.TensorInfo[] = [];
  for (let l = 0; inputs[`kernel${l}`] !== undefined; l++) {
    kernels.push(inputs[`kernel${l}`] as tf.TensorInfo);
    const bias = inputs[`bias${l}`];
    if (bias !== undefined) biases.push(bias);
  }
  return biases.length === 0 ? { input, kernels } : { input, kernels, biases };
}
