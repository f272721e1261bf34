import * as tf from '@tensorflow/tfjs-core';
import type * as tfl from '@tensorflow/tfjs-layers';

/** The tf.Variables behind the trainable weights of `layers`, in weight order. */
export function variablesOf(layers: readonly tfl.layers.Layer[]): tf.Variable[] {
  return layers.flatMap((layer) =>
    layer.trainableWeights.map((weight) => asVariable(weight.read())),
  );
}

/** The tf.Variables behind all weights of `layer`, trainable or not. */
export function allVariablesOf(layer: tfl.layers.Layer): tf.Variable[] {
  return layer.weights.map((weight) => asVariable(weight.read()));
}

/** `tensor` as the tf.Variable it is (a LayerVariable's value), or an error. */
export function asVariable(tensor: tf.Tensor): tf.Variable {
  if (!(tensor instanceof tf.Variable)) throw new Error('expected a tf.Variable');
  return tensor as tf.Variable;
}

/** What `fromConfig` looks like on every layer class. */
interface FromConfig {
  fromConfig(cls: unknown, config: tf.serialization.ConfigDict): unknown;
}

/** A layer rebuilt by its class' `fromConfig` from its own `getConfig`, as loading does. */
export function rebuilt<T extends tfl.layers.Layer>(
  layer: T,
  layerClass: (abstract new (...args: never[]) => T) & { readonly className: string },
): T {
  const copy = (layerClass as unknown as FromConfig).fromConfig(layerClass, layer.getConfig());
  if (!(copy instanceof layerClass)) throw new Error(`expected a ${layerClass.className}`);
  return copy;
}
