import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from '@partonfit/backend';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installReadCounter, type ReadCounter } from './read-counter.js';

describe('installReadCounter', () => {
  let counter: ReadCounter | undefined;
  beforeAll(async () => {
    await initBackend('cpu');
  });
  afterEach(() => {
    counter?.uninstall();
  });

  it('should count every read-back and no op that stays on the device', async () => {
    const x = tf.tensor1d([1, 2, 3]);
    counter = installReadCounter();
    const y = tf.tidy(() => tf.sum(tf.mul(x, x)));
    expect(counter.count).toBe(0);
    await y.data();
    y.dataSync();
    await x.array();
    expect(counter.count).toBe(3);
    counter.uninstall();
    x.dataSync();
    expect(counter.count).toBe(3);
    tf.dispose([x, y]);
  });
});
