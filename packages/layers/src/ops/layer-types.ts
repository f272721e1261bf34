import type * as tfl from '@tensorflow/tfjs-layers';

/** The constructor arguments every tfjs-layers `Layer` accepts (`name`, `trainable`, …). */
export type LayerArgs = NonNullable<ConstructorParameters<typeof tfl.layers.Layer>[0]>;

/** The keyword arguments tfjs-layers passes to `Layer.call`. */
export type LayerKwargs = Parameters<tfl.layers.Layer['call']>[1];
