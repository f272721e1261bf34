import { describe, expect, it } from 'vitest';
import { cacheKey } from './cache-key.js';

describe('cacheKey', () => {
  it('should give 24 hex digits, equal for equal determinants in any key order, else different', () => {
    const key = cacheKey(['format-1', { xGrid: [1e-3, 0.5, 1] }]);
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    expect(cacheKey(['format-1', { xGrid: [1e-3, 0.5, 1] }])).toBe(key);
    expect(cacheKey(['format-1', { xGrid: [1e-3, 0.5000000000000001, 1] }])).not.toBe(key);
    expect(cacheKey(['format-2', { xGrid: [1e-3, 0.5, 1] }])).not.toBe(key);
    expect(cacheKey({ b: 2, a: 1 })).toBe(cacheKey({ a: 1, b: 2 }));
  });
});
