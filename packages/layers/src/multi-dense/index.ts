/**
 * MultiDense: dense layers for many replicas at once — a layer per network layer
 * ({@link MultiDense}) or the whole network in one layer ({@link MultiDenseNetwork}) — and the
 * activations and initialisers they share with the rest of the package.
 *
 * Replica r of every layer computes `activation(input_r @ kernel[r] + bias[r])` with kernel
 * `(replicas, in, units)` and bias `(replicas, 1, units)`, initialised exactly as a
 * single-replica `tf.layers.dense` with replica r's seed; replicas never mix.
 *
 * Measurements (tfjs 4.22, Node 20, this 2-core machine; `multi-dense.bench.ts`): the NNPDF4.0
 * network 2 → 25 → 20 → 8 (tanh, tanh, linear), 1,500 points, forward + backward to every
 * weight, mean ms per step:
 *
 * | formulation                                  | wasm R=1 | R=10 | R=100 | cpu R=1 | R=10 | R=100 |
 * |----------------------------------------------|---------:|-----:|------:|--------:|-----:|------:|
 * | batched matMul, autodiff                     |      3.7 | 42.2 |   417 |    27.7 |  266 |  2533 |
 * | first layer one 2-D product, autodiff        |      4.0 | 40.9 |   414 |    29.9 |  299 |  2892 |
 * | `MultiDense` (2-D first layer, custom grad)  |      2.2 | 41.8 |   428 |    22.1 |  262 |  2593 |
 * | custom grad with explicit transposes, all    |      2.3 | 41.9 |   433 |    28.8 |  304 |  2940 |
 * | `MultiDenseNetwork` per-replica              |      2.9 | 24.1 |   233 |    23.0 |  224 |  2382 |
 *
 * What decides it: wasm multiplies fast (XNNPACK) only plain 2-D products without transpose
 * flags; any batched product runs a scalar loop whatever its layout, so at R ≥ 10 every
 * per-layer formulation costs the same. Per-replica 2-D products are faster, but between layers
 * they need the `(replicas, points, units)` tensor split per replica, and on wasm every `slice`
 * (so `split`, `unstack`) copies the whole input (100 slices of a (100, 1500, 25) tensor: ~450 ms)
 * and `gather` costs ~35 ns per element. {@link MultiDenseNetwork} avoids this by running the
 * whole network per replica inside one custom-gradient operation, so only the output gradient is
 * split once (by `gather`). Fused activations do not help: `tf.fused.matMul` fuses no non-linear
 * activation while a gradient is being recorded, no backend fuses tanh, and the wasm fused
 * kernel wants a bias buffer created with rank 1 (a reshaped `(replicas, 1, units)` bias is
 * rejected), so biases are fused from a rank-1 copy and activations applied after.
 *
 * On native, {@link MultiDenseNetwork} runs as the backend's two network kernels
 * (`fusedDenseNetwork`, formulation `fused`): the whole network forward in one kernel, backward
 * in another, each replica with its own activation per layer. For the `dis` bench's 2-25-20-8
 * network at R = 1 that is some 9 kernels per step instead of 70 (the step 3.75 → 3.43 ms).
 *
 * @packageDocumentation
 */
export {
  ACTIVATION_FUNCTIONS,
  applyActivation,
  checkActivation,
  isActivationName,
  LEAKY_RELU_ALPHA,
  type ActivationName,
} from './activations.js';
export {
  checkInitializer,
  initialPaddedKernels,
  initialReplicaKernels,
  kernelInitializer,
  RANDOM_UNIFORM_LIMIT,
  UNSEEDED_ZERO_REPLACEMENT,
  type InitializerName,
  type KernelInitializer,
  type PaddedKernelShape,
} from './initializers.js';
export { MultiDense, multiDense, type MultiDenseArgs } from './multi-dense.js';
export {
  MultiDenseNetwork,
  multiDenseNetwork,
  type MultiDenseNetworkArgs,
  type NetworkFormulation,
} from './multi-dense-network.js';
export { fusedDenseNetwork } from './fused-network.js';
export { perReplicaNetwork } from './replica-network.js';
export { replicaDense, sharedInputDense } from './replica-products.js';
