import { describe, expect, it } from 'vitest';
import { parseCompound } from './compound.js';
import { inputFileError } from '@partonfit/testing';

const file = 'compound/FK_NMCPD-COMPOUND.dat';

const parseError = (text: string) => inputFileError(() => parseCompound(text, { file }));

describe('parseCompound', () => {
  it('should read the example of NNPDF documentation', () => {
    const text = '# COMPOUND FK\nFK: FK_NUMERATOR.dat\nFK: FK_DENOMINATOR.dat\nOP: RATIO\n';
    expect(parseCompound(text, { file })).toEqual({
      tables: ['NUMERATOR', 'DENOMINATOR'],
      operation: 'RATIO',
    });
  });

  it('should ignore the first line, whatever it holds, and blank lines', () => {
    const text = 'OP: ADD\n\nFK:FK_A.dat\r\n  FK: FK_B.dat  \n\nOP: ASY\n\n';
    expect(parseCompound(text, { file })).toEqual({ tables: ['A', 'B'], operation: 'ASY' });
  });

  it('should keep ten tables for SMT and twenty for COM in order', () => {
    const tables = Array.from({ length: 20 }, (_, k) => `T${k}`);
    const text = (count: number, op: string) =>
      ['#', ...tables.slice(0, count).map((t) => `FK: FK_${t}.dat`), `OP: ${op}`].join('\n');
    expect(parseCompound(text(10, 'SMT'), { file }).tables).toEqual(tables.slice(0, 10));
    expect(parseCompound(text(20, 'COM'), { file }).tables).toEqual(tables);
  });

  it('should reject a number of tables that does not fit the operation, at the OP line', () => {
    const error = parseError('#\nFK: FK_A.dat\nFK: FK_B.dat\nFK: FK_C.dat\nOP: RATIO\n');
    expect(error).toMatchObject({ file, line: 5, key: 'OP' });
    expect(error.message).toMatch(/operation RATIO takes 2 operands, got 3/);
    expect(parseError('#\nFK: FK_A.dat\nOP: SMN\n').message).toMatch(/SMN takes 4 operands, got 1/);
  });

  it('should reject unknown, missing and repeated operations', () => {
    expect(parseError('#\nFK: FK_A.dat\nOP: SUBTRACT_ABS\n')).toMatchObject({ line: 3 });
    expect(parseError('#\nFK: FK_A.dat\nOP: SUBTRACT_ABS\n').message).toMatch(
      /unknown operation "SUBTRACT_ABS": expected one of NULL, ADD/,
    );
    expect(parseError('#\nFK: FK_A.dat\n').message).toMatch(/missing "OP: <CODE>"/);
    expect(parseError('#\nFK: FK_A.dat\nOP: NULL\nOP: NULL\n')).toMatchObject({ line: 4 });
  });

  it('should reject other lines and table files not named FK_<NAME>.dat', () => {
    expect(parseError('#\nFK: FK_A.dat\nFOO: 1\nOP: NULL\n')).toMatchObject({ line: 3 });
    expect(parseError('#\nFK: A.dat\nOP: NULL\n')).toMatchObject({ line: 2, key: 'FK' });
    expect(parseError('#\nFK: ../FK_A.dat\nOP: NULL\n')).toMatchObject({ line: 2, key: 'FK' });
  });
});
