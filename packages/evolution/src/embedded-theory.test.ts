import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputFileRejection } from '@partonfit/testing';
import { EMBEDDED_THEORY_NAMES, loadTheoryCard, TOY_LH_LO_THEORY } from './embedded-theory.js';
import { lhapdfQGrid } from './q-grid.js';
import { strongCouplingOfTheory } from './strong-coupling.js';

describe('loadTheoryCard', () => {
  it("should give the embedded closure fit's LO theory at the toy PDF's Q0 by its name", async () => {
    expect(EMBEDDED_THEORY_NAMES).toEqual([TOY_LH_LO_THEORY]);
    const card = await loadTheoryCard(TOY_LH_LO_THEORY);
    expect(card).toMatchObject({
      file: 'embedded theory card toyLH-LO',
      order: 0,
      evolutionMethod: 'EXA',
      q0: Math.SQRT2,
      intrinsicCharm: true,
      masses: { charm: 1.3, bottom: 4.5, top: 175 },
    });
    expect(strongCouplingOfTheory(card).alphaS(Math.SQRT2)).toBeCloseTo(0.35, 12);
    // charm is fitted, so the LHAPDF grid opens with a 4-flavour block at Q0
    const qGrid = lhapdfQGrid(card);
    expect(qGrid[0]).toBe(Math.SQRT2);
    expect(qGrid.filter((q) => q === 4.5)).toHaveLength(2);
  });

  it('should read any other name as a card file, and name a missing file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-theory-'));
    const file = join(folder, 'nlo.yaml');
    await writeFile(
      file,
      'PTO: 1\nQ0: 1.65\nalphas: 0.118\nQref: 91.2\nmc: 1.51\nkcThr: 1\nmb: 4.92\nkbThr: 1\nmt: 172.5\nktThr: 1\nMaxNfAs: 5\nMaxNfPdf: 5\nIC: 1\n',
    );
    expect((await loadTheoryCard(file)).order).toBe(1);
    const missing = await inputFileRejection(loadTheoryCard(join(folder, 'toyLH-NLO')));
    expect(missing.file).toBe(join(folder, 'toyLH-NLO'));
  });
});
