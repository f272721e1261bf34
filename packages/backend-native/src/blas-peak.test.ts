import { describe, expect, it } from 'vitest';
import { measureBlasPeak } from './blas-peak.js';
import { backendStatus } from './register-native-backend.js';
import { nativeAvailable } from './testing/native.fixture.js';

describe.skipIf(!nativeAvailable)('measureBlasPeak', () => {
  it('should time one product per pool thread each round and give the median rate', () => {
    const peak = measureBlasPeak(96, 3);
    const status = backendStatus();
    expect(status.available).toBe(true);
    expect(peak?.size).toBe(96);
    expect(peak?.threads).toBe(status.available ? status.threads : 0);
    expect(peak?.roundSeconds).toHaveLength(3);
    for (const seconds of peak?.roundSeconds ?? []) expect(seconds).toBeGreaterThan(0);
    const sorted = [...(peak?.roundSeconds ?? [])].sort((a, b) => a - b);
    expect(peak?.gflops).toBeCloseTo((peak!.threads * 2 * 96 ** 3) / sorted[1] / 1e9, 9);
  });
});
