import { describe, expect, it } from 'vitest';
import { closeNames, suggestKey } from './suggest-key.js';

describe('closeNames and suggestKey', () => {
  it('should rank candidates by edit distance, ignoring case', () => {
    expect(closeNames('slacp', ['SLACD', 'SLACP', 'NMC', 'BCDMSP'], 2)).toEqual(['SLACP', 'SLACD']);
    expect(suggestKey('fraq', ['frac', 'cfac', 'weight'])).toBe('frac');
    expect(suggestKey('zzzz', ['frac'])).toBeUndefined();
  });
});
