import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { parseLhapdfGrid } from './lhapdf-grid.js';
import { lhapdfMemberText, type LhapdfMemberGrid } from './lhapdf-member-text.js';
import { parseLhapdfInfo } from './lhapdf-set.js';
import { infoText } from './lhapdf.fixture.js';

/** 4 x knots, one block of 2 Q knots, PIDs 21 and 1: values (x, q, pid). */
const SMALL: LhapdfMemberGrid = {
  pdfType: 'replica',
  header: { FromMCReplica: 367 },
  pids: [21, 1],
  xKnots: [1e-3, 0.01, 0.1, 1],
  qKnots: [2, 3],
  values: [
    ...[0, -0.16904794, 1.25, -1e-100],
    ...[123456789, 1.00390625, -0, 2],
    ...[0.1, 0.2, 0.3, 0.4],
    ...[0, 0, 0, 0],
  ],
};

/** SMALL as C's printf writes it: knots with %.7e, each value as ' %14.7e'. */
const SMALL_TEXT = `PdfType: replica
Format: lhagrid1
FromMCReplica: 367
---
1.0000000e-03 1.0000000e-02 1.0000000e-01 1.0000000e+00
2.0000000e+00 3.0000000e+00
21 1
  0.0000000e+00 -1.6904794e-01
  1.2500000e+00 -1.0000000e-100
  1.2345679e+08  1.0039062e+00
 -0.0000000e+00  2.0000000e+00
  1.0000000e-01  2.0000000e-01
  3.0000000e-01  4.0000000e-01
  0.0000000e+00  0.0000000e+00
  0.0000000e+00  0.0000000e+00
---
`;

/** 4 x knots, blocks of Q [2, 3] and [3, 5], PIDs -1, 21, 1; value = x + q / 10 + pid / 100. */
function twoBlocks(): LhapdfMemberGrid {
  const xKnots = [1e-3, 0.01, 0.1, 1];
  const qKnots = [2, 3, 3, 5];
  const pids = [-1, 21, 1];
  const values = xKnots.flatMap((x) =>
    qKnots.flatMap((q) => pids.map((pid) => x + q / 10 + pid / 100)),
  );
  return { pdfType: 'central', pids, xKnots, qKnots, blockSizes: [2, 2], values };
}

function argumentError(member: LhapdfMemberGrid): InvalidArgumentError {
  try {
    lhapdfMemberText(member);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidArgumentError, nothing was thrown');
}

describe('lhapdfMemberText', () => {
  it("should write the header, knots, PIDs and values in C's %.7e layout", () => {
    expect(lhapdfMemberText(SMALL)).toBe(SMALL_TEXT);
  });

  it('should follow the number format: upper-case exponent, other digits', () => {
    const upper = lhapdfMemberText(SMALL, { exponent: 'E' });
    expect(upper).toBe(SMALL_TEXT.replaceAll('e+', 'E+').replaceAll('e-', 'E-'));
    const short = lhapdfMemberText({ ...SMALL, header: {} }, { fractionDigits: 3 }).split('\n');
    expect(short.slice(3, 9)).toEqual([
      '1.000e-03 1.000e-02 1.000e-01 1.000e+00',
      '2.000e+00 3.000e+00',
      '21 1',
      '  0.000e+00 -1.690e-01',
      '  1.250e+00 -1.000e-100',
      '  1.235e+08  1.004e+00',
    ]);
  });

  it('should write one block per Q block, repeating x knots and PIDs', () => {
    const member = twoBlocks();
    const text = lhapdfMemberText(member);
    const lines = text.split('\n');
    expect(lines.filter((line) => line === '---')).toHaveLength(3);
    expect(lines[4]).toBe('2.0000000e+00 3.0000000e+00');
    // header: 2 lines and '---'; block 1: 3 lines, 4 × 2 rows (lines 7 to 14), '---'
    expect(lines.slice(14, 18)).toEqual([
      '---',
      '1.0000000e-03 1.0000000e-02 1.0000000e-01 1.0000000e+00',
      '3.0000000e+00 5.0000000e+00',
      '-1 21 1',
    ]);
    const set = parseLhapdfInfo(infoText({ pids: [-1, 21, 1] }), {
      name: 'Toy',
      folder: '/toy',
      infoFile: '/toy/Toy.info',
    });
    const grid = parseLhapdfGrid(text, { set, member: 0, file: 'Toy_0000.dat' });
    expect(grid.blockSizes).toEqual([2, 2]);
    expect(Array.from(grid.qKnots)).toEqual([2, 3, 3, 5]);
    // (x = 0.1, Q = 5, pid 21): 0.1 + 0.5 + 0.21 rounded to eight digits
    expect(grid.values[(2 * 4 + 3) * 3 + 1]).toBe(0.81);
    expect(grid.header).toEqual({ PdfType: 'central', Format: 'lhagrid1' });
  });

  it('should reject x knots that are too few, outside (0, 1] or not increasing', () => {
    expect(argumentError({ ...SMALL, xKnots: [0.01, 0.1, 1] }).message).toBe(
      'member.xKnots: log-cubic interpolation needs at least 4 x knots, got 3',
    );
    expect(argumentError({ ...SMALL, xKnots: [0, 0.01, 0.1, 1] }).message).toBe(
      'member.xKnots: knot 1 is 0, outside (0, 1]',
    );
    expect(argumentError({ ...SMALL, xKnots: [1e-3, 0.01, 0.1, 1.5] }).message).toBe(
      'member.xKnots: knot 4 is 1.5, outside (0, 1]',
    );
    expect(argumentError({ ...SMALL, xKnots: [1e-3, 0.01, NaN, 1] }).message).toBe(
      'member.xKnots: knot 3 is NaN, outside (0, 1]',
    );
    expect(argumentError({ ...SMALL, xKnots: [1e-3, 0.1, 0.01, 1] }).message).toBe(
      'member.xKnots: knots must increase strictly; knot 3 (0.01) follows 0.1',
    );
  });

  it('should reject knots that become equal once rounded to the format', () => {
    expect(argumentError({ ...SMALL, xKnots: [1e-3, 0.1, 0.100000001, 1] }).message).toBe(
      'member.xKnots: knots 2 and 3 (0.1, 0.100000001) are both written as 1.0000000e-01',
    );
    expect(argumentError({ ...SMALL, qKnots: [2, 2.000000001] }).message).toBe(
      'member.qKnots: knots 1 and 2 (2, 2.000000001) are both written as 2.0000000e+00',
    );
  });

  it('should check Q knots and block sizes', () => {
    expect(argumentError({ ...SMALL, qKnots: [-2, 3] }).message).toBe(
      'member.qKnots: knot 1 is -2, outside (0, ∞)',
    );
    expect(argumentError({ ...twoBlocks(), qKnots: [2, 3, 2.5, 5] }).message).toBe(
      "member.qKnots: block 2 starts at Q = 2.5, below the previous block's last Q = 3",
    );
    expect(argumentError({ ...twoBlocks(), qKnots: [2, 3, 5, 4] }).message).toBe(
      'member.qKnots: knots must increase strictly; knot 4 (4) follows 5',
    );
    expect(argumentError({ ...twoBlocks(), blockSizes: [3, 2] }).message).toBe(
      'member.blockSizes: the blocks hold 5 Q knots, but qKnots has 4',
    );
    expect(argumentError({ ...twoBlocks(), blockSizes: [3, 1] }).message).toBe(
      'member.blockSizes: a block needs an integer number of at least 2 Q knots, got 1',
    );
  });

  it('should reject values that do not fit the knots, and non-finite values', () => {
    let shapeError: unknown;
    try {
      lhapdfMemberText({ ...SMALL, values: Array.from(SMALL.values).slice(0, 15) });
    } catch (error) {
      shapeError = error;
    }
    expect(ShapeError.isInstance(shapeError)).toBe(true);
    expect(shapeError).toMatchObject({ quantity: 'member.values', expected: [16], actual: [15] });
    const values = Array.from(SMALL.values);
    values[(2 * 2 + 1) * 2 + 1] = Infinity;
    expect(argumentError({ ...SMALL, values }).message).toBe(
      'member.values: x·f is Infinity at x knot 3, Q knot 2, PID 1',
    );
  });

  it('should check PIDs, the PDF type and the header', () => {
    expect(argumentError({ ...SMALL, pids: [21, 21] }).message).toBe(
      'member.pids: PID 21 appears twice',
    );
    expect(argumentError({ ...SMALL, pids: [21, 1.5] }).message).toBe(
      'member.pids: PID 1.5 is not a non-zero integer',
    );
    expect(argumentError({ ...SMALL, pids: [] }).message).toBe('member.pids: no PIDs');
    const hessian = { ...SMALL, pdfType: 'error' } as unknown as LhapdfMemberGrid;
    expect(argumentError(hessian).message).toBe(
      "member.pdfType: expected 'central' or 'replica', got 'error'",
    );
    expect(argumentError({ ...SMALL, header: { Format: 'lhagrid1' } }).message).toBe(
      "member.header: 'Format' is written by the writer; give pdfType instead",
    );
    expect(argumentError({ ...SMALL, header: { 'From replica': 3 } }).message).toBe(
      "member.header: key 'From replica' is not a word of letters, digits and '_'",
    );
    expect(argumentError({ ...SMALL, header: { FromMCReplica: NaN } }).message).toMatch(
      /^member\.header\.FromMCReplica: expected a finite number/,
    );
  });

  it('should reject a number format it cannot write', () => {
    expect(() => lhapdfMemberText(SMALL, { fractionDigits: 0 })).toThrow(
      'format.fractionDigits: expected an integer from 1 to 16, got 0',
    );
    expect(() => lhapdfMemberText(SMALL, { exponent: 'd' as 'e' })).toThrow(
      "format.exponent: expected 'e' or 'E', got 'd'",
    );
  });
});
