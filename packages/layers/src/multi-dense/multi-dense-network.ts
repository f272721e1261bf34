import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { hasDenseNetworkKernels } from '@partonfit/backend';
import { InvalidArgumentError, oneOf, positiveInteger, ShapeError } from '@partonfit/core';
import type { LayerArgs } from '../ops/index.js';
import { applyActivation, checkActivation, type ActivationName } from './activations.js';
import { fusedDenseNetwork } from './fused-network.js';
import {
  checkInitializer,
  checkSeed,
  initialPaddedKernels,
  type InitializerName,
} from './initializers.js';
import { singleInput, singleShape } from './layer-input.js';
import { replicaDense, sharedInputDense } from './replica-products.js';
import { perReplicaNetwork } from './replica-network.js';

/**
 * How {@link MultiDenseNetwork} computes:
 *
 * - `per-replica`: the whole network as one custom-gradient operation of per-replica plain 2-D
 *   products (`perReplicaNetwork`); fastest with more than one replica (1.8× on wasm, 1.1× on
 *   cpu at 100 replicas);
 * - `layer-by-layer`: as a {@link MultiDense} stack computes (one 2-D product for the first
 *   layer, batched products after, plain 2-D products throughout with one replica); fastest
 *   with one replica;
 * - `fused`: the whole network as the backend's two network kernels (`fusedDenseNetwork`), one
 *   forward and one backward, each replica with its own activations without slicing the
 *   replicas apart; only on a backend that registers them (native);
 * - `auto`: `fused` where the backend has the kernels; else `layer-by-layer` for one replica
 *   or on native, `per-replica` for more.
 */
export type NetworkFormulation = 'auto' | 'per-replica' | 'layer-by-layer' | 'fused';

const FORMULATIONS: readonly NetworkFormulation[] = [
  'auto',
  'per-replica',
  'layer-by-layer',
  'fused',
];

/** Arguments of {@link MultiDenseNetwork}. */
export interface MultiDenseNetworkArgs extends LayerArgs {
  /** Output units of each layer (`nodes_per_layer`), e.g. `[25, 20, 8]`. */
  readonly units: readonly number[];
  /** The activation of each layer (`activation_per_layer`), e.g. `['tanh', 'tanh', 'linear']`. */
  readonly activations: readonly ActivationName[];
  /**
   * The kernel initialiser, one for all replicas or one per replica `(replicas)`; default
   * `glorot_normal`. Biases start at 0.
   */
  readonly initializer?: InitializerName | readonly InitializerName[];
  /**
   * The seeds, `(layers, replicas)`: `seeds[l][r]` initialises layer l of replica r exactly as
   * `MultiDense({ seeds: seeds[l] })` would (upstream: nnseed_r + l).
   */
  readonly seeds: readonly (readonly number[])[];
  /**
   * Each replica's own width of each layer, `(layers, replicas)`, at most `units[l]` (the
   * default): a replica narrower than the layer uses only its first units, and the others are
   * masked to exact zeros (see {@link MultiDenseNetwork}).
   */
  readonly replicaUnits?: readonly (readonly number[])[];
  /**
   * Each replica's activation of each layer, `(layers, replicas)`, where replicas differ
   * (default: `activations[l]` for every replica of layer l).
   */
  readonly replicaActivations?: readonly (readonly ActivationName[])[];
  /**
   * The layers each replica passes through unchanged, `(layers, replicas)` (default none):
   * layer l of replica r then returns its input — an identity kernel, bias 0, linear — so that a
   * shallower network trains as a member of a deeper one. Its width `replicaUnits[l][r]` must be
   * its input width; its own weights are masked out as padding is, and never train.
   */
  readonly passThrough?: readonly (readonly boolean[])[];
  /** How to compute; default `auto`. */
  readonly formulation?: NetworkFormulation;
}

/**
 * A whole multi-replica dense network in one layer: the same weights, initialisation and
 * numbers as a stack of {@link MultiDense} layers (the first with a shared input), with weights
 * `kernel_<l>` `(replicas, in, units)` and `bias_<l>` `(replicas, 1, units)` in the stack's
 * order, so `getWeights`/`setWeights` carry over between the two.
 *
 * Replicas may be narrower than the layers (`replicaUnits`): replica r of width w_l in layer l
 * uses the block `kernel_l[r, :w_{l−1}, :w_l]` and `bias_l[r, :, :w_l]`, initialised exactly as
 * its own dense layers of those widths would be, and every weight outside its block is
 * multiplied by a constant 0/1 mask before use. A masked unit therefore has weight 0, bias 0 and
 * gradient exactly 0 — it never influences the replica's output, and an optimiser (whose update
 * of a zero gradient is zero) never moves it — so the replica computes what a network of its
 * own widths computes, up to the order of float32 sums over the padding.
 *
 * Input: `(points, in)`, shared by all replicas. Output: `(replicas, points, units_last)`.
 *
 * It exists for speed: with more than one replica its default `per-replica` formulation runs
 * the NNPDF4.0 network forward and backward 1.7–1.8× faster on wasm (and ~10% faster on cpu)
 * than the layer stack, whose `(replicas, points, units)` tensors between layers can only be
 * multiplied as batched products (a scalar loop on wasm) or split per replica (every wasm slice
 * copies the whole tensor). See the `multi-dense` module documentation for the measurements.
 */
export class MultiDenseNetwork extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitMultiDenseNetwork';
  /** Output units of each layer. */
  readonly units: readonly number[];
  /** Activation of each layer. */
  readonly activations: readonly ActivationName[];
  /** The kernel initialiser of each replica, `(replicas)`. */
  readonly initializers: readonly InitializerName[];
  /** The seeds, `(layers, replicas)`. */
  readonly seeds: readonly (readonly number[])[];
  /** Each replica's width of each layer, `(layers, replicas)`. */
  readonly replicaUnits: readonly (readonly number[])[];
  /** Each replica's activation of each layer, `(layers, replicas)` (linear where it passes through). */
  readonly replicaActivations: readonly (readonly ActivationName[])[];
  /** Whether each replica passes each layer through unchanged, `(layers, replicas)`. */
  readonly passThrough: readonly (readonly boolean[])[];
  /** The formulation asked for. */
  readonly formulation: NetworkFormulation;
  private kernels: tfl.LayerVariable[] = [];
  private biases: tfl.LayerVariable[] = [];
  /**
   * Per layer, the 0/1 masks of replicas narrower than the layer or passing it through, and the
   * identity kernel of those passing through; undefined where there is none.
   */
  private masks: (LayerMasks | undefined)[] = [];
  /** Per layer whose replicas' activations differ, its runs of replicas of one activation. */
  private activationRuns: (readonly ActivationRun[] | undefined)[] = [];

  constructor(args: MultiDenseNetworkArgs) {
    super(args);
    const layers = args.units.length;
    if (layers === 0 || args.activations.length !== layers || args.seeds.length !== layers) {
      throw new InvalidArgumentError({
        argument: 'units, activations, seeds',
        problem: `expected one entry per layer in each, got ${args.units.length} units, ${args.activations.length} activations and ${args.seeds.length} seed lists`,
      });
    }
    args.units.forEach((units, l) => positiveInteger(units, `units[${l}]`));
    const replicas = args.seeds[0]?.length ?? 0;
    args.seeds.forEach((layerSeeds, l) => {
      if (layerSeeds.length !== replicas || replicas === 0) {
        throw new InvalidArgumentError({
          argument: `seeds[${l}]`,
          problem: `expected one seed per replica (${replicas}) in every layer, got ${layerSeeds.length}`,
        });
      }
      layerSeeds.forEach((seed, r) => {
        checkSeed(seed, `seeds[${l}][${r}]`);
      });
    });
    this.units = [...args.units];
    this.activations = args.activations.map((activation, l) =>
      checkActivation(activation, `activations[${l}]`),
    );
    this.initializers = replicaInitializers(args.initializer ?? 'glorot_normal', replicas);
    this.seeds = args.seeds.map((layerSeeds) => [...layerSeeds]);
    this.replicaUnits = checkReplicaUnits(args.replicaUnits, this.units, replicas);
    this.passThrough = checkPerReplica(args.passThrough, 'passThrough', layers, replicas, false);
    this.replicaActivations = checkPerReplica(
      args.replicaActivations,
      'replicaActivations',
      layers,
      replicas,
      undefined,
    ).map((layer, l) =>
      layer.map((activation, r) =>
        this.passThrough[l][r]
          ? 'linear'
          : checkActivation(activation ?? this.activations[l], `replicaActivations[${l}][${r}]`),
      ),
    );
    this.formulation = oneOf(args.formulation ?? 'auto', FORMULATIONS, 'formulation', {
      loose: true,
    });
  }

  /** Number of replicas. */
  get replicas(): number {
    return this.seeds[0]?.length ?? 0;
  }

  /** The kernel initialiser, when all replicas share one (else the first replica's). */
  get initializer(): InitializerName {
    return this.initializers[0] ?? 'glorot_normal';
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    let inputs = this.inputFeatures(inputShape);
    this.disposeMasks();
    this.kernels = [];
    this.biases = [];
    const inputUnits = Array.from({ length: this.replicas }, () => inputs);
    this.units.forEach((units, l) => {
      const kernel = this.addWeight(
        `kernel_${l}`,
        [this.replicas, inputs, units],
        'float32',
        tfl.initializers.zeros(),
      );
      const bias = this.addWeight(
        `bias_${l}`,
        [this.replicas, 1, units],
        'float32',
        tfl.initializers.zeros(),
      );
      const replicaInputs = l === 0 ? inputUnits : (this.replicaUnits[l - 1] ?? []);
      const replicaOutputs = this.replicaUnits[l] ?? [];
      const passing = this.passThrough[l] ?? [];
      passing.forEach((passes, r) => {
        if (passes && replicaOutputs[r] !== replicaInputs[r]) {
          throw new InvalidArgumentError({
            argument: `replicaUnits[${l}][${r}]`,
            problem: `replica ${r} passes layer ${l} through, so it must be as wide as its input (${replicaInputs[r]}), not ${replicaOutputs[r]}`,
          });
        }
      });
      tf.tidy(() => {
        kernel.write(
          initialPaddedKernels(this.initializers, this.seeds[l] ?? [], {
            inputs: replicaInputs,
            units: replicaOutputs,
            padded: [inputs, units],
          }),
        );
      });
      this.kernels.push(kernel);
      this.biases.push(bias);
      this.masks.push(layerMasks(replicaInputs, replicaOutputs, passing, [inputs, units]));
      this.activationRuns.push(activationRuns(this.replicaActivations[l] ?? []));
      inputs = units;
    });
    this.built = true;
  }

  /** Whether some replica is narrower than some layer (its padding is masked). */
  get padded(): boolean {
    return this.replicaUnits.some((layer, l) =>
      layer.some((units) => units < (this.units[l] ?? 0)),
    );
  }

  /**
   * Layer l's activation of every replica's pre-activation `(replicas, points, units)`: each run
   * of replicas of one activation sliced out, activated and put back in place.
   */
  private activate(l: number, linear: tf.Tensor): tf.Tensor {
    const runs = this.activationRuns[l];
    if (runs === undefined) return applyActivation(this.activations[l] ?? 'linear', linear);
    const [, points, units] = linear.shape as [number, number, number];
    return tf.concat(
      runs.map(({ activation, start, end }) =>
        applyActivation(activation, tf.slice(linear, [start, 0, 0], [end - start, points, units])),
      ),
      0,
    );
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    this.inputFeatures(inputShape);
    return [
      this.replicas,
      singleShape(inputShape)[0] ?? null,
      this.units[this.units.length - 1] ?? 0,
    ];
  }

  /** The formulation a call uses now: `auto` resolved for the active backend. */
  activeFormulation(): Exclude<NetworkFormulation, 'auto'> {
    const fused = hasDenseNetworkKernels();
    if (this.formulation === 'fused' && !fused) {
      throw new InvalidArgumentError({
        argument: 'formulation',
        problem: `'fused' needs a backend with the network kernels (native); '${tf.getBackend()}' has none`,
      });
    }
    if (this.formulation !== 'auto') return this.formulation;
    if (fused) return 'fused';
    // native's batched products are fast enough that the shared stack wins at every R
    if (this.replicas === 1 || tf.getBackend() === 'native') return 'layer-by-layer';
    return 'per-replica';
  }

  /**
   * @param inputs - `(points, in)`
   * @returns `(replicas, points, units_last)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor3D {
    return tf.tidy(() => {
      const x = singleInput(inputs, this.name) as tf.Tensor2D;
      this.inputFeatures(x.shape);
      if (this.kernels.length === 0) this.build(x.shape);
      const formulation = this.activeFormulation();
      if (formulation === 'fused') {
        return fusedDenseNetwork(
          x,
          this.kernels.map((kernel) => kernel.read() as tf.Tensor3D),
          this.biases.map((bias) => bias.read() as tf.Tensor3D),
          {
            activations: this.replicaActivations,
            widths: this.replicaUnits,
            passThrough: this.passThrough,
          },
        );
      }
      const kernels = this.kernels.map((kernel, l) => {
        const mask = this.masks[l];
        const value = kernel.read() as tf.Tensor3D;
        if (mask === undefined) return value;
        const masked = tf.mul<tf.Tensor3D>(value, mask.kernel);
        return mask.identity === undefined ? masked : tf.add<tf.Tensor3D>(masked, mask.identity);
      });
      const biases = this.biases.map((bias, l) => {
        const mask = this.masks[l];
        const value = bias.read() as tf.Tensor3D;
        return mask === undefined ? value : tf.mul<tf.Tensor3D>(value, mask.bias);
      });
      if (formulation === 'per-replica') {
        return perReplicaNetwork(x, kernels, biases, this.replicaActivations);
      }
      return kernels.reduce((h: tf.Tensor, kernel, l) => {
        const bias = biases[l];
        const linear =
          l === 0
            ? sharedInputDense(h as tf.Tensor2D, kernel, bias)
            : replicaDense(h as tf.Tensor3D, kernel, bias);
        return this.activate(l, linear);
      }, x) as tf.Tensor3D;
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return {
      ...super.getConfig(),
      units: [...this.units],
      activations: [...this.activations],
      initializer: [...this.initializers],
      seeds: this.seeds.map((layerSeeds) => [...layerSeeds]),
      replicaUnits: this.replicaUnits.map((layer) => [...layer]),
      replicaActivations: this.replicaActivations.map((layer) => [...layer]),
      passThrough: this.passThrough.map((layer) => [...layer]),
      formulation: this.formulation,
    };
  }

  override dispose(): ReturnType<tfl.layers.Layer['dispose']> {
    const result = super.dispose();
    if (result.refCountAfterDispose === 0) this.disposeMasks();
    return result;
  }

  private disposeMasks(): void {
    tf.dispose(
      this.masks.flatMap((mask) =>
        mask === undefined
          ? []
          : [mask.kernel, mask.bias, ...(mask.identity ? [mask.identity] : [])],
      ),
    );
    this.masks = [];
    this.activationRuns = [];
  }

  private inputFeatures(inputShape: tfl.Shape | tfl.Shape[] | readonly number[]): number {
    const shape = singleShape(inputShape);
    const features = shape[1];
    if (shape.length !== 2 || features === null) {
      throw new ShapeError({
        quantity: `${this.name} input`,
        expected: [null, null],
        actual: shape.map((size) => size ?? -1),
        axes: '(points, in)',
      });
    }
    return features;
  }
}

tf.serialization.registerClass(MultiDenseNetwork);

/** One initialiser per replica, from one for all or a list (tfjs configs may rename them). */
function replicaInitializers(
  initializer: InitializerName | readonly InitializerName[],
  replicas: number,
): InitializerName[] {
  if (typeof initializer === 'string') {
    const name = checkInitializer(initializer);
    return Array.from({ length: replicas }, () => name);
  }
  if (initializer.length !== replicas) {
    throw new InvalidArgumentError({
      argument: 'initializer',
      problem: `expected one initialiser per replica (${replicas}), got ${initializer.length}`,
    });
  }
  return initializer.map((name, r) => checkInitializer(name, `initializer[${r}]`));
}

/** Each replica's width of each layer, `(layers, replicas)`, checked; the layers' by default. */
function checkReplicaUnits(
  replicaUnits: readonly (readonly number[])[] | undefined,
  units: readonly number[],
  replicas: number,
): number[][] {
  if (replicaUnits === undefined) {
    return units.map((layer) => Array.from({ length: replicas }, () => layer));
  }
  return checkPerReplica(replicaUnits, 'replicaUnits', units.length, replicas, 0).map((layer, l) =>
    layer.map((width, r) => {
      positiveInteger(width, `replicaUnits[${l}][${r}]`);
      if (width > (units[l] ?? 0)) {
        throw new InvalidArgumentError({
          argument: `replicaUnits[${l}][${r}]`,
          problem: `replica ${r} is ${width} units wide, wider than the layer's ${units[l]}`,
        });
      }
      return width;
    }),
  );
}

/** A layer's 0/1 masks and the identity kernel of the replicas that pass it through. */
interface LayerMasks {
  readonly kernel: tf.Tensor3D;
  readonly bias: tf.Tensor3D;
  readonly identity: tf.Tensor3D | undefined;
}

/** Consecutive replicas `[start, end)` of one activation in a layer whose replicas' differ. */
interface ActivationRun {
  readonly activation: ActivationName;
  readonly start: number;
  readonly end: number;
}

/** A layer's runs of consecutive replicas of one activation, or undefined when all share one. */
function activationRuns(activations: readonly ActivationName[]): ActivationRun[] | undefined {
  const runs: ActivationRun[] = [];
  activations.forEach((activation, r) => {
    const last = runs.at(-1);
    if (last?.activation === activation) runs[runs.length - 1] = { ...last, end: r + 1 };
    else runs.push({ activation, start: r, end: r + 1 });
  });
  return runs.length < 2 ? undefined : runs;
}

/**
 * The 0/1 masks of a layer whose replicas may be narrower than it or pass it through: the
 * kernel's `(replicas, in, units)` with 1 on each replica's block `[:in_r, :units_r]`, the bias's
 * `(replicas, 1, units)` with 1 on `[:units_r]`, both 0 for a replica passing through, whose
 * identity `[:in_r, :in_r]` is the constant `identity` kernel; undefined when every replica is as
 * wide as the layer on both sides and none passes through.
 */
function layerMasks(
  inputs: readonly number[],
  units: readonly number[],
  passThrough: readonly boolean[],
  [paddedInputs, paddedUnits]: readonly [number, number],
): LayerMasks | undefined {
  const passing = passThrough.some((passes) => passes);
  const full =
    !passing &&
    inputs.every((width) => width === paddedInputs) &&
    units.every((width) => width === paddedUnits);
  if (full) return undefined;
  const replicas = units.length;
  const kernel = new Float32Array(replicas * paddedInputs * paddedUnits);
  const bias = new Float32Array(replicas * paddedUnits);
  const identity = new Float32Array(passing ? kernel.length : 0);
  units.forEach((width, r) => {
    for (let i = 0; i < (inputs[r] ?? 0); i++) {
      const row = (r * paddedInputs + i) * paddedUnits;
      if (passThrough[r]) identity[row + i] = 1;
      else kernel.fill(1, row, row + width);
    }
    if (!passThrough[r]) bias.fill(1, r * paddedUnits, r * paddedUnits + width);
  });
  const shape: [number, number, number] = [replicas, paddedInputs, paddedUnits];
  // kept: the layer is built inside the `tf.tidy` of its first call, and owns its masks
  return {
    kernel: tf.keep(tf.tensor3d(kernel, shape)),
    bias: tf.keep(tf.tensor3d(bias, [replicas, 1, paddedUnits])),
    identity: passing ? tf.keep(tf.tensor3d(identity, shape)) : undefined,
  };
}

/** A per-replica setting of every layer, `(layers, replicas)`, checked; `fill` by default. */
function checkPerReplica<T>(
  values: readonly (readonly T[])[] | undefined,
  argument: string,
  layers: number,
  replicas: number,
  fill: T,
): T[][] {
  if (values === undefined) {
    return Array.from({ length: layers }, () => Array.from({ length: replicas }, () => fill));
  }
  if (values.length !== layers) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected one list per layer (${layers}), got ${values.length}`,
    });
  }
  return values.map((layer, l) => {
    if (layer.length !== replicas) {
      throw new InvalidArgumentError({
        argument: `${argument}[${l}]`,
        problem: `expected one entry per replica (${replicas}), got ${layer.length}`,
      });
    }
    return [...layer];
  });
}

/**
 * A {@link MultiDenseNetwork} (tfjs-style factory): `(points, in)` →
 * `(replicas, points, units_last)`.
 */
export function multiDenseNetwork(args: MultiDenseNetworkArgs): MultiDenseNetwork {
  return new MultiDenseNetwork(args);
}
