import { describe, expect, it } from 'vitest';
import { applyCFactors, parseCFactors } from './cfactors.js';
import { disTable, hadronicTable } from './fk-table.fixture.js';
import { inputFileError } from '@partonfit/testing';

const file = 'cfactor/CF_QCD_SET.dat';

/** The example of NNPDF's documentation, three points. */
const EXAMPLE = [
  '*******************************************',
  'SetName: D0ZRAP',
  'Author: John Doe john.doe@cern.ch',
  'PDFset: NNPDF30_as_0118_nnlo',
  '*******************************************',
  ' 1.1 0.1',
  ' 1.2\t0.12',
  '',
  ' 1.3 0.13',
  '',
].join('\n');

describe('parseCFactors', () => {
  it('should read the header block and one central value and uncertainty per point', () => {
    const cFactors = parseCFactors(EXAMPLE, { file, ndata: 3 });
    expect(cFactors.file).toBe(file);
    expect(cFactors.description).toContain('SetName: D0ZRAP');
    expect(Array.from(cFactors.central)).toEqual([1.1, 1.2, 1.3]);
    expect(Array.from(cFactors.uncertainty)).toEqual([0.1, 0.12, 0.13]);
  });

  it('should reject fewer or more lines than data points, naming the line', () => {
    expect(inputFileError(() => parseCFactors(EXAMPLE, { file, ndata: 4 }))).toMatchObject({
      file,
      line: 9,
      message: expect.stringMatching(/expected 4 lines of C-factors .* got 3/) as string,
    });
    expect(inputFileError(() => parseCFactors(EXAMPLE, { file, ndata: 2 })).line).toBe(9);
  });

  it('should reject a line that is not two finite numbers', () => {
    for (const bad of [' 1.2', ' 1.2 0.1 7', ' nan 0.1', ' 1.2 abc']) {
      const text = EXAMPLE.replace(' 1.2\t0.12', bad);
      expect(inputFileError(() => parseCFactors(text, { file, ndata: 3 })).line).toBe(7);
    }
  });

  it('should reject a missing or unclosed header block', () => {
    expect(inputFileError(() => parseCFactors(' 1.1 0.1\n', { file, ndata: 1 })).line).toBe(1);
    const unclosed = EXAMPLE.split('\n')
      .filter((_, i) => i !== 4)
      .join('\n');
    expect(inputFileError(() => parseCFactors(unclosed, { file, ndata: 3 })).message).toMatch(
      /never closed/,
    );
  });
});

describe('applyCFactors', () => {
  const twoSets = [
    parseCFactors('*\n*\n2 0\n3 0\n', { file: 'a.dat', ndata: 2 }),
    parseCFactors('*\n*\n0.5 0\n10 0\n', { file: 'b.dat', ndata: 2 }),
  ];

  it('should multiply each data point of a DIS table by the product of its C-factors', () => {
    const table = disTable({ ndata: 2, xGrid: [0.1, 0.2], channels: [1], values: [1, 2, 3, 4] });
    const corrected = applyCFactors(table, twoSets);
    // point 0 × 2 · 0.5 = 1, point 1 × 3 · 10 = 30
    expect(Array.from(corrected.values)).toEqual([1, 2, 90, 120]);
    expect(corrected.cFactors).toEqual(['a.dat', 'b.dat']);
    expect(Array.from(table.values)).toEqual([1, 2, 3, 4]);
  });

  it('should scale every (channel, x1, x2) value of a hadronic data point', () => {
    const table = hadronicTable({
      ndata: 2,
      xGrid: [0.1],
      channels: [
        [1, 1],
        [2, 2],
      ],
      values: [1, 1, 1, 1],
    });
    expect(Array.from(applyCFactors(table, twoSets).values)).toEqual([1, 1, 30, 30]);
  });

  it('should reject C-factors of another length, naming their file', () => {
    const table = disTable({ ndata: 3, xGrid: [0.1], channels: [1], values: [1, 2, 3] });
    expect(inputFileError(() => applyCFactors(table, twoSets))).toMatchObject({
      file: 'a.dat',
      message: expect.stringMatching(/holds 2 C-factors, but the FK table DIS has 3/) as string,
    });
  });
});
