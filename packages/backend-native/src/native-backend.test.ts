import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from './addon/index.js';
import { NativeBackend } from './native-backend.js';
import { backendStatus } from './register-native-backend.js';
import {
  nativeAvailable,
  randomTensor,
  randomValues,
  runOn,
  worstRatio,
} from './testing/native.fixture.js';

/** One forward + backward of a 2 → 25 → 20 → 8 MultiDense network for R replicas. */
function networkGradients(replicas: number, points: number): tf.Tensor {
  const x = randomTensor([points, 2], 1, 0, 1);
  const target = randomTensor([replicas, points, 8], 2);
  const weights = [
    randomTensor([replicas, 2, 25], 3),
    randomTensor([replicas, 1, 25], 4),
    randomTensor([replicas, 25, 20], 5),
    randomTensor([replicas, 1, 20], 6),
    randomTensor([replicas, 20, 8], 7),
    randomTensor([replicas, 1, 8], 8),
  ];
  const loss = (...w: tf.Tensor[]) => {
    const [w1, b1, w2, b2, w3, b3] = w as [tf.Tensor3D, ...tf.Tensor3D[]];
    // The first layer as the fused product with a per-replica bias, the others unfused.
    const h1 = tf.tanh(tf.fused.matMul({ a: x, b: w1, bias: b1 }));
    const h2 = tf.tanh(tf.add(tf.matMul(h1, w2), b2));
    const out = tf.add(tf.matMul(h2, w3), b3);
    return tf.mean(tf.sum(tf.squaredDifference(out, target), [1, 2]));
  };
  const gradients = tf.grads(loss)(weights);
  return tf.concat(gradients.map((gradient) => tf.reshape(gradient, [-1])));
}

const status = backendStatus();

/** The native backend that is active, checked (tests switch to it first). */
function activeNativeBackend(): NativeBackend {
  const backend = tf.engine().backend;
  if (!(backend instanceof NativeBackend)) throw new Error('the native backend is not active');
  return backend;
}

describe.skipIf(!nativeAvailable)('the native backend', () => {
  it('should register every cpu kernel under native', () => {
    const cpu = tf.getKernelsForBackend('cpu').map((config) => config.kernelName);
    const native = new Set(tf.getKernelsForBackend('native').map((config) => config.kernelName));
    expect(cpu.filter((name) => !native.has(name))).toEqual([]);
  });

  it('should use a pool of at least one thread and describe what it runs on', () => {
    if (!status.available) throw new Error(status.reason);
    expect(status.threads).toBeGreaterThanOrEqual(1);
    expect(status.description).toMatch(
      /^C\+\+ addon (over .+|without a BLAS \(own GEMM\)), (AVX-512|AVX2|baseline) kernels, \d+ threads?(, PARTONFIT_NATIVE_ADDON=.+)?$/,
    );
  });

  it.runIf(status.available && status.blas === 'OpenBLAS')(
    'should run OpenBLAS one thread per call, with the kernel chosen before the library loaded',
    () => {
      if (!status.available) throw new Error(status.reason);
      expect(status.blasThreads).toBe(1);
      const chosen = status.openblasCoretype.coretype ?? status.blasCore;
      expect(status.blasCore.toLowerCase()).toBe(chosen.toLowerCase());
    },
  );

  it('should give the gradients of a small multi-replica network equal to the cpu backend', async () => {
    const cpu = await runOn('cpu', () => networkGradients(4, 60));
    const native = await runOn('native', () => networkGradients(4, 60));
    const largest = Math.max(...Array.from(cpu.values, Math.abs));
    // Products of inner dimension ≤ 60 and sums of ≤ 4·60·8 terms, float32: 10⁻⁵ of the largest
    // gradient component is ~100 ulp, well above the rounding and far below any real mistake.
    expect(worstRatio(native.values, cpu.values, 0, 1e-5 * largest)).toBeLessThanOrEqual(1);
  });

  it('should keep the number of tensors and buffers flat over training steps', async () => {
    await tf.setBackend('native');
    const weights = tf.variable(randomTensor([8, 2, 25], 9) as tf.Tensor3D);
    const x = tf.tensor2d(randomValues(200, 10), [100, 2]);
    const optimizer = tf.train.adam(0.01);
    const step = () => {
      optimizer.minimize(() => tf.mean(tf.square(tf.tanh(tf.matMul(x, weights)))), false);
    };
    step();
    const tensors = tf.memory().numTensors;
    const buffers = activeNativeBackend().numDataIds();
    for (let i = 0; i < 20; i++) step();
    expect(tf.memory().numTensors).toBe(tensors);
    expect(activeNativeBackend().numDataIds()).toBe(buffers);
    optimizer.dispose();
    weights.dispose();
    x.dispose();
  });

  it('should reuse the arrays of disposed outputs, but never one that was read out or viewed', async () => {
    await tf.setBackend('native');
    const backend = activeNativeBackend();
    const x = randomTensor([300, 200], 11);
    // Read out: the array handed to the caller must keep its values.
    const readOut = tf.tanh(x);
    const values = readOut.dataSync();
    const expected = Array.from(values.slice(0, 50));
    readOut.dispose();
    // Viewed: a contiguous slice is a view of its input's buffer.
    const source = tf.exp(x);
    const view = tf.slice(source, [100, 0], [50, 200]);
    const viewValues = Array.from(view.dataSync().slice(0, 50));
    source.dispose();
    // Freed with nothing else referring to it: recycled for the next output of its length.
    const before = backend.recycledBytes;
    tf.sigmoid(x).dispose();
    expect(backend.recycledBytes).toBe(before + 300 * 200 * 4);
    // Small outputs too (a scan's per-replica scalars).
    const small = randomTensor([3], 12);
    tf.sigmoid(small).dispose();
    expect(backend.recycledBytes).toBe(before + (300 * 200 + 3) * 4);
    small.dispose();
    for (let i = 0; i < 5; i++) tf.dispose([tf.neg(x), tf.square(x), tf.abs(x)]);
    expect(Array.from(values.slice(0, 50))).toEqual(expected);
    expect(Array.from(view.dataSync().slice(0, 50))).toEqual(viewValues);
    const again = await runOn('native', () => tf.tanh(randomTensor([300, 200], 11)));
    expect(Array.from(again.values.slice(0, 50))).toEqual(expected);
    tf.dispose([x, view]);
  });

  it('should reuse the arrays of disposed comparisons, and give each its own values', async () => {
    await tf.setBackend('native');
    const backend = activeNativeBackend();
    const x = tf.tensor2d([
      [-1, 2, -3],
      [4, -5, 6],
    ]);
    const before = backend.recycledBytes;
    tf.lessEqual(x, 0).dispose();
    expect(backend.recycledBytes).toBe(before + 6);
    const recycled = tf.greater(x, 0);
    expect(backend.recycledBytes).toBe(before);
    expect(recycled.dtype).toBe('bool');
    // reading a bool tensor out copies its values (the cpu backend's readSync), so the array
    // itself stays the backend's and is reused once the tensor is disposed
    const readOut = recycled.dataSync();
    expect(Array.from(readOut)).toEqual([0, 1, 0, 1, 0, 1]);
    recycled.dispose();
    expect(backend.recycledBytes).toBe(before + 6);
    const later = tf.less(x, 0);
    expect(backend.recycledBytes).toBe(before);
    expect(Array.from(later.dataSync())).toEqual([1, 0, 1, 0, 1, 0]);
    expect(Array.from(readOut)).toEqual([0, 1, 0, 1, 0, 1]);
    tf.dispose([x, later]);
  });

  it('should reject arrays too short for the shapes it is given instead of reading past them', () => {
    const { addon } = loadNativeAddon();
    if (addon === undefined) throw new Error('addon not loaded');
    const out = new Float32Array(4);
    expect(() => {
      addon.matMul(
        new Float32Array(3),
        new Float32Array(4),
        out,
        1,
        2,
        2,
        2,
        false,
        false,
        null,
        null,
        1,
        1,
        null,
        null,
        1,
        0,
        0,
      );
    }).toThrow(RangeError);
    expect(() => {
      addon.binary(
        0,
        new Float32Array(4),
        Int32Array.of(2, 3),
        new Float32Array(1),
        Int32Array.of(1),
        out,
        Int32Array.of(2, 3),
      );
    }).toThrow(/holds 4 elements, needs 6/);
    expect(() => {
      addon.transpose(
        new Float32Array(6),
        Int32Array.of(2, 3),
        Int32Array.of(0, 0),
        new Float32Array(6),
      );
    }).toThrow(/not a permutation/);
    expect(() => {
      addon.unary(99, 0, new Float32Array(1), new Float32Array(1));
    }).toThrow(/unknown unary op/);
  });
});
