import { InputFileError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { npyAsFloat64, npyAsIntegers } from './convert.js';
import type { NpyDtype } from './npy-array.js';
import { bytesOf, makeNpy } from './npy.fixture.js';
import { parseNpy } from './parse-npy.js';

const SOURCE = { file: 'synthetic.npy' };

/** The InputFileError that `parse` throws. */
function inputError(parse: () => unknown): InputFileError {
  try {
    parse();
  } catch (error) {
    if (InputFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InputFileError, nothing was thrown');
}

type Writer = (view: DataView, offset: number, value: number) => void;

/** Each dtype with its numpy descr, item size, a DataView writer and values it holds exactly. */
const CASES: readonly {
  dtype: NpyDtype;
  descr: string;
  size: number;
  write: Writer;
  values: number[];
}[] = [
  {
    dtype: 'float64',
    descr: '<f8',
    size: 8,
    write: (v, o, x) => {
      v.setFloat64(o, x, true);
    },
    values: [1.5, -2.25e-300, 0.1],
  },
  {
    dtype: 'float32',
    descr: '<f4',
    size: 4,
    write: (v, o, x) => {
      v.setFloat32(o, x, true);
    },
    values: [1.5, -0.125, 2 ** 100],
  },
  {
    dtype: 'int64',
    descr: '<i8',
    size: 8,
    write: (v, o, x) => {
      v.setBigInt64(o, BigInt(x), true);
    },
    values: [-(2 ** 40), 7, 2 ** 53 - 1],
  },
  {
    dtype: 'int32',
    descr: '<i4',
    size: 4,
    write: (v, o, x) => {
      v.setInt32(o, x, true);
    },
    values: [-2147483648, 11, 2147483647],
  },
  {
    dtype: 'int16',
    descr: '<i2',
    size: 2,
    write: (v, o, x) => {
      v.setInt16(o, x, true);
    },
    values: [-32768, 300, 32767],
  },
  {
    dtype: 'int8',
    descr: '|i1',
    size: 1,
    write: (v, o, x) => {
      v.setInt8(o, x);
    },
    values: [-128, 5, 127],
  },
  {
    dtype: 'uint64',
    descr: '<u8',
    size: 8,
    write: (v, o, x) => {
      v.setBigUint64(o, BigInt(x), true);
    },
    values: [0, 2 ** 33 + 1, 2 ** 52],
  },
  {
    dtype: 'uint32',
    descr: '<u4',
    size: 4,
    write: (v, o, x) => {
      v.setUint32(o, x, true);
    },
    values: [0, 65537, 4294967295],
  },
  {
    dtype: 'uint16',
    descr: '<u2',
    size: 2,
    write: (v, o, x) => {
      v.setUint16(o, x, true);
    },
    values: [0, 258, 65535],
  },
  {
    dtype: 'uint8',
    descr: '|u1',
    size: 1,
    write: (v, o, x) => {
      v.setUint8(o, x);
    },
    values: [0, 128, 255],
  },
  {
    dtype: 'bool',
    descr: '|b1',
    size: 1,
    write: (v, o, x) => {
      v.setUint8(o, x);
    },
    values: [1, 0, 1],
  },
];

describe('parseNpy', () => {
  it.each(CASES)('should read $descr as $dtype', ({ dtype, descr, size, write, values }) => {
    const array = parseNpy(
      makeNpy({ descr, shape: [3], data: bytesOf(values, size, write) }),
      SOURCE,
    );
    expect(array.dtype).toBe(dtype);
    expect(array.shape).toEqual([3]);
    expect(npyAsFloat64(array, SOURCE)).toEqual(new Float64Array(values));
  });

  it('should convert big-endian types to the machine order', () => {
    const float64 = bytesOf([1.5, -3.75e-10], 8, (v, o, x) => {
      v.setFloat64(o, x, false);
    });
    expect(
      Array.from(
        npyAsFloat64(
          parseNpy(makeNpy({ descr: '>f8', shape: [2], data: float64 }), SOURCE),
          SOURCE,
        ),
      ),
    ).toEqual([1.5, -3.75e-10]);
    const int32 = bytesOf([-5, 70000], 4, (v, o, x) => {
      v.setInt32(o, x, false);
    });
    expect(
      npyAsIntegers(parseNpy(makeNpy({ descr: '>i4', shape: [2], data: int32 }), SOURCE), SOURCE),
    ).toEqual([-5, 70000]);
    const int64 = bytesOf([-(2 ** 35)], 8, (v, o, x) => {
      v.setBigInt64(o, BigInt(x), false);
    });
    const array = parseNpy(makeNpy({ descr: '>i8', shape: [1], data: int64 }), SOURCE);
    expect(npyAsIntegers(array, SOURCE)).toEqual([-(2 ** 35)]);
  });

  const FORTRAN_CASES: readonly { descr: string; size: number; write: Writer }[] = [
    {
      descr: '<f8',
      size: 8,
      write: (v, o, x) => {
        v.setFloat64(o, x, true);
      },
    },
    {
      descr: '<i8',
      size: 8,
      write: (v, o, x) => {
        v.setBigInt64(o, BigInt(x), true);
      },
    },
    {
      descr: '>f4',
      size: 4,
      write: (v, o, x) => {
        v.setFloat32(o, x, false);
      },
    },
    {
      descr: '<i2',
      size: 2,
      write: (v, o, x) => {
        v.setInt16(o, x, true);
      },
    },
    {
      descr: '|u1',
      size: 1,
      write: (v, o, x) => {
        v.setUint8(o, x);
      },
    },
  ];

  it.each(FORTRAN_CASES)(
    'should transpose a Fortran-ordered (2, 3, 4) $descr array into C order',
    ({ descr, size, write }) => {
      // element (i, j, k) = 100 i + 10 j + k, written with the first axis fastest
      const fortran: number[] = [];
      for (let k = 0; k < 4; k++)
        for (let j = 0; j < 3; j++) for (let i = 0; i < 2; i++) fortran.push(100 * i + 10 * j + k);
      const array = parseNpy(
        makeNpy({
          descr,
          shape: [2, 3, 4],
          fortranOrder: true,
          data: bytesOf(fortran, size, write),
        }),
        SOURCE,
      );
      expect(array.shape).toEqual([2, 3, 4]);
      const values = npyAsFloat64(array, SOURCE);
      expect(values[0 * 12 + 0 * 4 + 1]).toBe(1);
      expect(values[1 * 12 + 2 * 4 + 3]).toBe(123);
      expect(values[0 * 12 + 1 * 4 + 0]).toBe(10);
      expect(Array.from(values)).toEqual(
        Array.from(
          { length: 24 },
          (_, n) => 100 * Math.floor(n / 12) + 10 * Math.floor((n % 12) / 4) + (n % 4),
        ),
      );
    },
  );

  it('should read a 0-d array and an empty one', () => {
    const scalar = parseNpy(
      makeNpy({
        descr: '<f8',
        shape: [],
        data: bytesOf([2.5], 8, (v, o, x) => {
          v.setFloat64(o, x, true);
        }),
      }),
      SOURCE,
    );
    expect(scalar.shape).toEqual([]);
    expect(npyAsFloat64(scalar, SOURCE)).toEqual(new Float64Array([2.5]));
    const empty = parseNpy(
      makeNpy({ descr: '<f4', shape: [0, 5], data: new Uint8Array(0) }),
      SOURCE,
    );
    expect(empty.shape).toEqual([0, 5]);
    expect(empty.data).toHaveLength(0);
  });

  it('should reject a file that does not start with the npy magic', () => {
    const error = inputError(() =>
      parseNpy(new TextEncoder().encode('PK\u0003\u0004 not npy at all'), {
        file: 'bundle.npz',
        key: 'xgrid.npy',
      }),
    );
    expect(error.message).toBe(
      'bundle.npz: xgrid.npy: not an .npy array: it does not start with \\x93NUMPY',
    );
    expect(error.key).toBe('xgrid.npy');
  });

  it('should reject an unparsable header and one without a shape', () => {
    const unclosed = makeNpy({
      descr: '<f8',
      shape: [1],
      data: new Uint8Array(8),
      headerText: "{'descr': '<f8', 'fortran_order': False, 'shape': (1,",
    });
    expect(inputError(() => parseNpy(unclosed, SOURCE)).message).toMatch(
      /^synthetic\.npy: unparsable \.npy header \(unexpected end at character 53\): \{'descr'/,
    );
    const noShape = makeNpy({
      descr: '<f8',
      shape: [1],
      data: new Uint8Array(8),
      headerText: "{'descr': '<f8', 'fortran_order': False}",
    });
    expect(inputError(() => parseNpy(noShape, SOURCE)).message).toMatch(
      /'shape' is not a tuple of sizes/,
    );
  });

  it.each(['|O', '<c16', '<U5', '<f2', '<M8[ns]'])(
    'should reject the unsupported dtype %s',
    (descr) => {
      const bytes = makeNpy({ descr, shape: [1], data: new Uint8Array(8) });
      expect(inputError(() => parseNpy(bytes, SOURCE)).message).toBe(
        `synthetic.npy: unsupported dtype '${descr}'`,
      );
    },
  );

  it('should reject a structured dtype', () => {
    const bytes = makeNpy({
      descr: '',
      shape: [1],
      data: new Uint8Array(8),
      headerText: "{'descr': [('x', '<f8')], 'fortran_order': False, 'shape': (1,), }",
    });
    expect(inputError(() => parseNpy(bytes, SOURCE)).message).toMatch(
      /unsupported dtype: structured type/,
    );
  });

  it('should reject data shorter or longer than the shape needs', () => {
    const short = makeNpy({ descr: '<f8', shape: [42, 9, 18], data: new Uint8Array(54000) });
    expect(inputError(() => parseNpy(short, { file: 'b.npz', key: 'fktable.npy' })).message).toBe(
      'b.npz: fktable.npy: truncated data: shape [42, 9, 18] of <f8 needs 54432 bytes, found 54000',
    );
    const long = makeNpy({ descr: '<i4', shape: [2], data: new Uint8Array(12) });
    expect(inputError(() => parseNpy(long, SOURCE)).message).toMatch(
      /unexpected trailing data: shape \[2\] of <i4 needs 8 bytes, found 12/,
    );
  });

  it('should reject a header that runs past the end of the bytes', () => {
    const bytes = makeNpy({ descr: '<f8', shape: [1], data: new Uint8Array(8) }).subarray(0, 40);
    expect(inputError(() => parseNpy(bytes, SOURCE)).message).toMatch(/truncated \.npy header/);
  });
});

describe('npyAsIntegers and npyAsFloat64', () => {
  it('should refuse floats as integers and int64 values beyond 2^53', () => {
    const floats = parseNpy(makeNpy({ descr: '<f8', shape: [1], data: new Uint8Array(8) }), SOURCE);
    expect(
      inputError(() => npyAsIntegers(floats, { file: 'b.npz', key: 'luminosity.npy' })).message,
    ).toBe('b.npz: luminosity.npy: expected an integer array, got float64');
    const huge = parseNpy(
      makeNpy({
        descr: '<i8',
        shape: [2],
        data: bytesOf([1, 0], 8, (v, o, x) => {
          v.setBigInt64(o, x === 0 ? 2n ** 60n : BigInt(x), true);
        }),
      }),
      SOURCE,
    );
    expect(inputError(() => npyAsIntegers(huge, SOURCE)).message).toBe(
      'synthetic.npy: int64 element 1 = 1152921504606846976 is beyond the exact integers of a float64',
    );
    expect(inputError(() => npyAsFloat64(huge, SOURCE)).message).toMatch(/element 1/);
  });
});
