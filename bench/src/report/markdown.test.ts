import { describe, expect, it } from 'vitest';
import { formatNumber, resultsMarkdown } from './markdown.js';

describe('formatNumber', () => {
  it('should keep about three significant figures without exponents', () => {
    expect(formatNumber(123_456.7)).toBe('123457');
    expect(formatNumber(412.5)).toBe('413');
    expect(formatNumber(12.345)).toBe('12.3');
    expect(formatNumber(1.2345)).toBe('1.23');
    expect(formatNumber(0.012345)).toBe('0.012');
    expect(formatNumber(-3.5)).toBe('-3.50');
    expect(formatNumber(0)).toBe('0');
  });
});

describe('resultsMarkdown', () => {
  it('should say so when there are no results', () => {
    expect(resultsMarkdown([])).toBe('# partonfit benchmark\n\nNo results.\n');
  });
});
