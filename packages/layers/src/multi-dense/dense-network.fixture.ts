import type { ActivationName } from './activations.js';

/** An activation and its derivative in float64, written from the formulas. */
export const ACTIVATIONS_64: Readonly<
  Record<ActivationName, { value: (z: number) => number; derivative: (z: number) => number }>
> = {
  linear: { value: (z) => z, derivative: () => 1 },
  tanh: { value: Math.tanh, derivative: (z) => 1 - Math.tanh(z) ** 2 },
  sigmoid: {
    value: (z) => 1 / (1 + Math.exp(-z)),
    derivative: (z) => Math.exp(-z) / (1 + Math.exp(-z)) ** 2,
  },
  relu: { value: (z) => Math.max(z, 0), derivative: (z) => (z > 0 ? 1 : 0) },
  elu: {
    value: (z) => (z > 0 ? z : Math.exp(z) - 1),
    derivative: (z) => (z > 0 ? 1 : Math.exp(z)),
  },
  softplus: { value: (z) => Math.log1p(Math.exp(z)), derivative: (z) => 1 / (1 + Math.exp(-z)) },
  square: { value: (z) => z * z, derivative: (z) => 2 * z },
  leaky_relu: { value: (z) => (z > 0 ? z : 0.2 * z), derivative: (z) => (z > 0 ? 1 : 0.2) },
  modified_tanh: {
    value: (z) => Math.abs(z) * Math.tanh(z),
    derivative: (z) => Math.sign(z) * Math.tanh(z) + Math.abs(z) * (1 - Math.tanh(z) ** 2),
  },
};

/** One layer of a float64 reference network. */
export interface DenseLayer64 {
  /** `(replicas, in, units)`, row-major. */
  readonly kernel: ArrayLike<number>;
  /** `(replicas, units)`. */
  readonly bias: ArrayLike<number>;
  readonly inputs: number;
  readonly units: number;
  readonly activation: ActivationName;
}

/** The forward values a float64 network keeps for its backward pass. */
export interface Forward64 {
  /** The network output `(replicas, points, units_last)`. */
  readonly output: Float64Array;
  /** Per layer: its input (shared `(points, in)` for the first) and pre-activation `(r, p, u)`. */
  readonly layers: readonly { input: Float64Array; preActivation: Float64Array }[];
}

/**
 * A stack of per-replica dense layers in float64 loops: the first reads the shared input
 * `x (points, in)`, the others `(replicas, points, in)`.
 */
export function forward64(
  x: ArrayLike<number>,
  points: number,
  replicas: number,
  layers: readonly DenseLayer64[],
): Forward64 {
  let input = Float64Array.from(x);
  let shared = true;
  const kept: { input: Float64Array; preActivation: Float64Array }[] = [];
  for (const layer of layers) {
    const { inputs, units } = layer;
    const pre = new Float64Array(replicas * points * units);
    const post = new Float64Array(replicas * points * units);
    for (let r = 0; r < replicas; r++) {
      for (let p = 0; p < points; p++) {
        for (let u = 0; u < units; u++) {
          let sum = layer.bias[r * units + u];
          for (let i = 0; i < inputs; i++) {
            const value = shared ? input[p * inputs + i] : input[(r * points + p) * inputs + i];
            sum += value * layer.kernel[(r * inputs + i) * units + u];
          }
          const at = (r * points + p) * units + u;
          pre[at] = sum;
          post[at] = ACTIVATIONS_64[layer.activation].value(sum);
        }
      }
    }
    kept.push({ input, preActivation: pre });
    input = post;
    shared = false;
  }
  return { output: input, layers: kept };
}

/** Gradients of `Σ upstream · output` with respect to every weight and the shared input. */
export interface Gradients64 {
  readonly kernels: readonly Float64Array[];
  readonly biases: readonly Float64Array[];
  /** `(points, in)` of the shared input. */
  readonly input: Float64Array;
}

/** Backpropagation through {@link forward64} in float64 loops. */
export function backward64(
  forward: Forward64,
  upstream: ArrayLike<number>,
  points: number,
  replicas: number,
  layers: readonly DenseLayer64[],
): Gradients64 {
  const kernels: Float64Array[] = [];
  const biases: Float64Array[] = [];
  let dOutput = Float64Array.from(upstream);
  let dInput = new Float64Array(0);
  for (let l = layers.length - 1; l >= 0; l--) {
    const layer = layers[l];
    const { input, preActivation } = forward.layers[l];
    const { inputs, units } = layer;
    const shared = l === 0;
    const dKernel = new Float64Array(replicas * inputs * units);
    const dBias = new Float64Array(replicas * units);
    dInput = new Float64Array(shared ? points * inputs : replicas * points * inputs);
    for (let r = 0; r < replicas; r++) {
      for (let p = 0; p < points; p++) {
        for (let u = 0; u < units; u++) {
          const at = (r * points + p) * units + u;
          const dz = dOutput[at] * ACTIVATIONS_64[layer.activation].derivative(preActivation[at]);
          dBias[r * units + u] += dz;
          for (let i = 0; i < inputs; i++) {
            const inputAt = shared ? p * inputs + i : (r * points + p) * inputs + i;
            dKernel[(r * inputs + i) * units + u] += input[inputAt] * dz;
            dInput[inputAt] += layer.kernel[(r * inputs + i) * units + u] * dz;
          }
        }
      }
    }
    kernels.unshift(dKernel);
    biases.unshift(dBias);
    dOutput = dInput;
  }
  return { kernels, biases, input: dInput };
}
