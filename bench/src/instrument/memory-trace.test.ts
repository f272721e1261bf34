import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from '@partonfit/backend';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryTrace, thinSeries } from './memory-trace.js';

describe('MemoryTrace', () => {
  beforeAll(async () => {
    await initBackend('cpu');
  });

  it('should be flat while steps free what they make and not when a step leaks', () => {
    const trace = new MemoryTrace();
    for (let step = 0; step < 3; step++) {
      tf.tidy(() => {
        tf.add(tf.ones([4]), 1);
      });
      trace.record(step);
    }
    expect(trace.flat).toBe(true);
    expect(trace.series.map((sample) => sample.step)).toEqual([0, 1, 2]);
    const leaked = tf.ones([4]);
    trace.record(3);
    expect(trace.flat).toBe(false);
    expect(trace.series[3].numTensors - trace.series[2].numTensors).toBe(1);
    expect(trace.series[3].numBytes - trace.series[2].numBytes).toBe(16);
    expect(trace.rssPeakBytes).toBeGreaterThan(0);
    leaked.dispose();
  });
});

describe('thinSeries', () => {
  it('should keep the first and last of evenly spread samples', () => {
    const series = Array.from({ length: 11 }, (_, i) => i);
    expect(thinSeries(series, 3)).toEqual([0, 5, 10]);
    expect(thinSeries(series, 20)).toEqual(series);
    expect(thinSeries(series, 1)).toEqual([0]);
  });
});
