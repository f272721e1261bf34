import * as tf from '@tensorflow/tfjs-core';

/**
 * The kernels of the active backend that `run` dispatches, in order, from `tf.profile`. A
 * custom-gradient operation appears in the profile under its scope's name besides its kernels;
 * only registered kernels are kept, so each dispatch counts once. `run` disposes what it makes.
 */
export async function registeredKernelsOf(run: () => void): Promise<string[]> {
  const registered = new Set(
    tf.getKernelsForBackend(tf.getBackend()).map((kernel) => kernel.kernelName),
  );
  const profile = await tf.profile(run);
  return profile.kernels.map((kernel) => kernel.name).filter((name) => registered.has(name));
}
