import { initBackend } from '@partonfit/backend';
import { beforeAll, describe, expect, it } from 'vitest';
import { measureSgemmThroughput, productFlops, SGEMM_SIZES } from './sgemm-throughput.js';

describe('measureSgemmThroughput', () => {
  beforeAll(async () => {
    await initBackend('cpu');
  });

  it('should time the largest product under the probe limit and give 2 n³ / median', async () => {
    const throughput = await measureSgemmThroughput(2);
    expect(SGEMM_SIZES).toContain(throughput.size);
    expect(throughput.stats.count).toBe(2);
    expect(throughput.gflops).toBeCloseTo(
      productFlops(throughput.size) / throughput.stats.median / 1e6,
      9,
    );
    expect(productFlops(1024)).toBe(2 * 1024 ** 3);
  });
});
