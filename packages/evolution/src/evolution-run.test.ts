import { inputFileError } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { evolutionSetup } from './evolution-run.js';
import { toyTheoryCard, X_GRID } from './toy-proton.fixture.js';

const problemOf = (overrides: string) =>
  inputFileError(() => evolutionSetup(toyTheoryCard(overrides), { xGrid: X_GRID, qGrid: [10] }));

describe('evolutionSetup', () => {
  it('should find the active flavours at Q0 and the squared thresholds of the card', () => {
    const setup = evolutionSetup(toyTheoryCard(''), { xGrid: X_GRID, qGrid: [10, 100] });
    expect(setup.nf0).toBe(3);
    expect(setup.thresholds2[0]).toBeCloseTo(1.51 ** 2, 12);
    expect(setup.thresholds2[1]).toBeCloseTo(4.92 ** 2, 12);
    expect(setup.method).toBe('TRN');
  });

  it('should name the key of a threshold ratio away from the mass at NLO and NNLO', () => {
    const nnlo = problemOf('kbThr: 2.0\n');
    expect(nnlo.key).toBe('kbThr');
    expect(nnlo.message).toContain('2: NNLO matching is supported at the mass (1.0) only');
    const nlo = problemOf('PTO: 1\nkcThr: 1.5\n');
    expect(nlo.key).toBe('kcThr');
    expect(nlo.message).toContain('1.5: NLO matching is supported at the mass (1.0) only');
  });

  it('should accept any threshold ratio at LO, where the PDFs are continuous', () => {
    const setup = evolutionSetup(toyTheoryCard('PTO: 0\nkbThr: 2.0\n'), {
      xGrid: X_GRID,
      qGrid: [100],
    });
    expect(setup.thresholds2[1]).toBeCloseTo((2 * 4.92) ** 2, 10);
  });

  it('should refuse intrinsic charm below the charm threshold and fitted charm without it', () => {
    expect(problemOf('IC: 1\n').message).toContain('intrinsic charm needs Q0 above');
    expect(problemOf('Q0: 1.65\n').message).toContain('needs IC: 1');
    expect(problemOf('MaxNfPdf: 4\n').key).toBe('MaxNfPdf');
  });

  it('should start with 3 flavours at Q0 = mc and cross the threshold on the way up', () => {
    const setup = evolutionSetup(toyTheoryCard('Q0: 1.51\n'), { xGrid: X_GRID, qGrid: [10] });
    expect(setup.nf0).toBe(3);
    expect(problemOf('Q0: 1.51\nIC: 1\n').message).toContain('intrinsic charm needs Q0 above');
  });

  it('should evolve NfFF flavours from Q0 without thresholds in a fixed-flavour-number scheme', () => {
    const ffns = 'FNS: FFNS\nNfFF: 4\n';
    const setup = evolutionSetup(toyTheoryCard(`${ffns}IC: 1\n`), {
      xGrid: X_GRID,
      qGrid: [10, 100],
    });
    expect(setup.nf0).toBe(4);
    expect(setup.thresholds2).toEqual([]);
    expect(problemOf(ffns).message).toContain('NfFF > 3 needs IC: 1');
  });
});
