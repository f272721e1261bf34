import { describe, expect, it } from 'vitest';
import {
  BackendUnavailableError,
  InputFileError,
  InvalidArgumentError,
  LinearAlgebraError,
  PartonfitError,
  RuncardError,
  ShapeError,
  UnsupportedInputError,
} from './index.js';

describe('partonfit errors', () => {
  it('should carry the file, line and key of bad input in the message and as fields', () => {
    const error = new InputFileError({
      file: 'theory_200/fastkernel/FK_POSXDQ.dat',
      line: 27,
      key: 'FastKernel',
      problem: 'expected 16 numbers, got 15',
    });
    expect(error.message).toBe(
      'theory_200/fastkernel/FK_POSXDQ.dat:27: FastKernel: expected 16 numbers, got 15',
    );
    expect(error).toMatchObject({
      file: 'theory_200/fastkernel/FK_POSXDQ.dat',
      line: 27,
      key: 'FastKernel',
      problem: 'expected 16 numbers, got 15',
    });
    expect(error.name).toBe('InputFileError');
  });

  it('should name the unsupported feature and still be an InputFileError', () => {
    const error = new UnsupportedInputError({
      file: 'grid.pineappl.lz4',
      key: 'header',
      feature: 'PineAPPL file version 1',
      problem: 'supported is version 0',
    });
    expect(error.message).toBe(
      'grid.pineappl.lz4: header: PineAPPL file version 1 is not supported: supported is version 0',
    );
    expect(UnsupportedInputError.isInstance(error)).toBe(true);
    expect(InputFileError.isInstance(error)).toBe(true);
    expect(PartonfitError.isInstance(error)).toBe(true);
    expect(UnsupportedInputError.isInstance(new InputFileError({ file: 'f', problem: 'p' }))).toBe(
      false,
    );
    expect(error.name).toBe('UnsupportedInputError');
  });

  it('should state expected and actual shapes with named axes', () => {
    const error = new ShapeError({
      quantity: 'fkTable',
      expected: [20, null, 9],
      actual: [20, 100],
      axes: '(data, x, flavours)',
    });
    expect(error.message).toBe(
      'fkTable: expected shape [20, *, 9] (data, x, flavours), got [20, 100]',
    );
    expect(error.expected).toEqual([20, null, 9]);
  });

  it('should list every runcard issue with file, line and key path', () => {
    const error = new RuncardError({
      file: 'fit.yml',
      issues: [
        { keyPath: 'parameters.epochs', line: 10, problem: 'expected a positive integer, got 0' },
        { keyPath: '', problem: 'not valid YAML' },
      ],
    });
    expect(error.message).toBe(
      'fit.yml: 2 problems in the runcard\n  fit.yml:10: parameters.epochs: expected a positive integer, got 0\n  fit.yml: not valid YAML',
    );
  });

  it('should name the operation and row of a failed factorisation', () => {
    const error = new LinearAlgebraError({
      operation: 'cholesky',
      problem: 'not positive definite at row 3',
      row: 3,
    });
    expect(error).toMatchObject({
      operation: 'cholesky',
      row: 3,
      message: 'cholesky: not positive definite at row 3',
    });
  });

  it('should keep the cause', () => {
    const cause = new Error('ENOENT');
    const error = new BackendUnavailableError({
      message: 'no wasm',
      backend: 'wasm',
      installCommand: 'npm i x',
      cause,
    });
    expect(error.cause).toBe(cause);
    expect(error.installCommand).toBe('npm i x');
  });

  it('should recognise errors by marker, also across copies of the package', () => {
    const error = new InvalidArgumentError({
      argument: 'replica',
      problem: 'expected a positive integer, got 0',
    });
    expect(PartonfitError.isInstance(error)).toBe(true);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(ShapeError.isInstance(error)).toBe(false);
    expect(PartonfitError.isInstance(new Error('plain'))).toBe(false);
    expect(PartonfitError.isInstance(null)).toBe(false);
    // A copy of the class from another install has other identities but the same global marker.
    const foreign = Object.assign(new Error('x'), { [Symbol.for('partonfit.error')]: true });
    expect(PartonfitError.isInstance(foreign)).toBe(true);
    expect(error).toBeInstanceOf(PartonfitError);
  });
});
