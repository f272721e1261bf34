import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@partonfit/core';
import { loadLhapdfSet } from '@partonfit/io';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { lhapdfQGrid } from './q-grid.js';
import { readTheoryCard } from './theory-card.js';
import { toyTheoryCard } from './toy-proton.fixture.js';

const NNPDF40 = 'lhapdf/NNPDF40_nnlo_as_01180';
const hasSet = hasSharedData(`${NNPDF40}/NNPDF40_nnlo_as_01180.info`, 'NNPDF4.0 LHAPDF set');
const hasCard = hasSharedData('theory_cards/200.yaml', 'theory card 200');

describe.skipIf(!hasSet || !hasCard)('lhapdfQGrid of theory 200', () => {
  it("should give NNPDF4.0's 50 Q knots", async () => {
    const set = await loadLhapdfSet(`${SHARED_DATA}${NNPDF40}`);
    const card = await readTheoryCard(`${SHARED_DATA}theory_cards/200.yaml`);
    const expected = set.record.AlphaS_Qs as number[];
    const grid = lhapdfQGrid(card);
    expect(grid).toHaveLength(50);
    // the file has 8 significant digits
    grid.forEach((q, i) => {
      expect(Math.abs(q / expected[i] - 1)).toBeLessThan(1e-7);
    });
  });
});

describe('lhapdfQGrid', () => {
  it('should repeat every threshold between Q0 and qMax and refuse too few points', () => {
    const grid = lhapdfQGrid(toyTheoryCard(''), { qMax: 1000, points: 20 });
    expect(grid).toHaveLength(20);
    expect(grid.filter((q) => q === 1.51)).toHaveLength(2);
    expect(grid.filter((q) => q === 4.92)).toHaveLength(2);
    expect(grid[0]).toBe(1.4);
    expect(grid[19]).toBe(1000);
    expect(() => lhapdfQGrid(toyTheoryCard(''), { points: 6 })).toThrow(InvalidArgumentError);
    expect(() => lhapdfQGrid(toyTheoryCard(''), { qMax: 1 })).toThrow(/above Q0/);
  });

  it('should make one block in a fixed-flavour-number scheme', () => {
    const card = toyTheoryCard('FNS: FFNS\nNfFF: 4\nIC: 1\n');
    const grid = lhapdfQGrid(card, { qMax: 1000, points: 20 });
    expect(grid).toHaveLength(20);
    expect(new Set(grid).size).toBe(20);
  });
});
