import { readFile } from 'node:fs/promises';
import { parseRuncard } from '@partonfit/core';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { fitCovarianceName } from './fit-covariance-name.js';

describe('fitCovarianceName', () => {
  it('should name the t0 set, or the experimental covariance, and the dataset weights', async () => {
    const text = await readFile(CLOSURE_RUNCARD, 'utf8');
    const name = (edited: string) => fitCovarianceName(parseRuncard(edited).runcard);
    expect(name(text)).toBe('experimental covariance');
    const t0 = `${text}\ndatacuts: { t0pdfset: NNPDF40_nnlo_as_01180 }\n`;
    expect(name(t0)).toBe('t0 covariance (t0pdfset NNPDF40_nnlo_as_01180)');
    const weighted = t0.replace(
      '{ dataset: CLOSURE_F2D, frac: 0.75 }',
      '{ dataset: CLOSURE_F2D, frac: 0.75, weight: 2 }',
    );
    expect(weighted).not.toBe(t0);
    expect(name(weighted)).toBe(
      't0 covariance (t0pdfset NNPDF40_nnlo_as_01180) with the dataset weights',
    );
  });
});
