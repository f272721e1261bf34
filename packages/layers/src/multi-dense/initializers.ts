import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { INITIALIZERS, InvalidArgumentError, oneOf } from '@partonfit/core';

/** The name of a weight initialiser a runcard may give (`parameters.initializer`). */
export type InitializerName = (typeof INITIALIZERS)[number];

/** A tfjs-layers weight initialiser. */
export type KernelInitializer = ReturnType<typeof tfl.initializers.glorotNormal>;

/**
 * The seed `glorot_normal` uses in place of 0: tfjs' Gaussian generator treats seed 0 as "no
 * seed" and draws from `Math.random`, so a single-replica dense layer with seed 0 is not
 * reproducible at all; 2³² is deterministic and is no other replica's seed (seeds are below 2³²).
 */
export const UNSEEDED_ZERO_REPLACEMENT = 2 ** 32;

/** The half-width of upstream's `random_uniform` kernel initialiser: U(−0.5, 0.5). */
export const RANDOM_UNIFORM_LIMIT = 0.5;

/**
 * The single-replica tfjs initialiser `name` with `seed`, as a single-replica
 * `tf.layers.dense` would be given it: `glorot_normal` → `tf.initializers.glorotNormal`
 * (truncated normal, σ = √(2/(in + out))), `glorot_uniform` → `glorotUniform`,
 * `random_uniform` → `randomUniform` on [−0.5, 0.5] (upstream's range, not Keras' default).
 * `glorot_normal` with seed 0 uses {@link UNSEEDED_ZERO_REPLACEMENT} instead.
 */
export function kernelInitializer(name: InitializerName, seed: number): KernelInitializer {
  checkSeed(seed, 'seed');
  switch (checkInitializer(name)) {
    case 'glorot_normal':
      return tfl.initializers.glorotNormal({ seed: seed === 0 ? UNSEEDED_ZERO_REPLACEMENT : seed });
    case 'glorot_uniform':
      return tfl.initializers.glorotUniform({ seed });
    case 'random_uniform':
      return tfl.initializers.randomUniform({
        minval: -RANDOM_UNIFORM_LIMIT,
        maxval: RANDOM_UNIFORM_LIMIT,
        seed,
      });
  }
}

/**
 * The initialiser `name` names (also as tfjs' saved configs rewrite it, e.g. `glorotNormal`),
 * else an {@link InvalidArgumentError} naming the choices.
 */
export function checkInitializer(name: string, argument = 'initializer'): InitializerName {
  return oneOf(name, INITIALIZERS, argument, { loose: true });
}

/**
 * The initial kernels of all replicas: replica r's slice is exactly what
 * {@link kernelInitializer}`(name, seeds[r])` draws for a `(inputs, units)` kernel, so it is
 * bit-identical to a single-replica `tf.layers.dense` with that seed and independent of the
 * other replicas.
 *
 * @param seeds - one seed per replica, `(replicas)`
 * @param shape - `[inputs, units]` of one replica's kernel
 * @returns `(replicas, inputs, units)`
 */
export function initialReplicaKernels(
  name: InitializerName,
  seeds: readonly number[],
  shape: readonly [number, number],
): tf.Tensor3D {
  return initialPaddedKernels(
    seeds.map(() => name),
    seeds,
    { inputs: seeds.map(() => shape[0]), units: seeds.map(() => shape[1]), padded: shape },
  );
}

/** Throws unless `seed` is an integer in [0, 2³²). */
export function checkSeed(seed: number, argument: string): void {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected an integer between 0 and 4294967295, got ${seed}`,
    });
  }
}

/** The widths of each replica's kernel and of the padded kernel that holds them all. */
export interface PaddedKernelShape {
  /** Each replica's input width, `(replicas)`. */
  readonly inputs: readonly number[];
  /** Each replica's output width, `(replicas)`. */
  readonly units: readonly number[];
  /** `[inputs, units]` of the padded kernel, at least every replica's. */
  readonly padded: readonly [number, number];
}

/**
 * The initial kernels of replicas of different widths in one padded kernel: replica r's block
 * `[:inputs[r], :units[r]]` is exactly what {@link kernelInitializer}`(names[r], seeds[r])` draws
 * for an `(inputs[r], units[r])` kernel — so it is bit-identical to a single-replica dense layer
 * of those widths — and the rest is 0. With every replica as wide as the padded kernel this is
 * {@link initialReplicaKernels}.
 *
 * @param names - each replica's initialiser, `(replicas)`
 * @param seeds - each replica's seed, `(replicas)`
 * @returns `(replicas, paddedInputs, paddedUnits)`
 */
export function initialPaddedKernels(
  names: readonly InitializerName[],
  seeds: readonly number[],
  shape: PaddedKernelShape,
): tf.Tensor3D {
  const [paddedInputs, paddedUnits] = shape.padded;
  const kernels: tf.Tensor = tf.tidy(() =>
    tf.stack(
      seeds.map((seed, r) => {
        const inputs = shape.inputs[r] ?? paddedInputs;
        const units = shape.units[r] ?? paddedUnits;
        const own = kernelInitializer(names[r] ?? 'glorot_normal', seed).apply(
          [inputs, units],
          'float32',
        );
        return inputs === paddedInputs && units === paddedUnits
          ? own
          : tf.pad(own, [
              [0, paddedInputs - inputs],
              [0, paddedUnits - units],
            ]);
      }),
    ),
  );
  return kernels as tf.Tensor3D;
}
