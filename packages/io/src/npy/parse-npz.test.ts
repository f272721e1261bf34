import { readFile } from 'node:fs/promises';
import { InputFileError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { npyAsFloat64, npyAsIntegers } from './convert.js';
import { loadNpy, loadNpz } from './load.js';
import type { NpyArray } from './npy-array.js';
import { bytesOf, makeNpy, makeZip } from './npy.fixture.js';
import { parseNpz } from './parse-npz.js';

const HERA = `${SHARED_DATA}bundles/HERACOMBCCEM.npz`;
const SLAC = `${SHARED_DATA}bundles/SLACP.npz`;
const hasBundles =
  hasSharedData('bundles/HERACOMBCCEM.npz', 'HERACOMBCCEM bundle') &&
  hasSharedData('bundles/SLACP.npz', 'SLACP bundle');

function inputError(parse: () => unknown): InputFileError {
  try {
    parse();
  } catch (error) {
    if (InputFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InputFileError, nothing was thrown');
}

function get(arrays: Map<string, NpyArray>, key: string): NpyArray {
  const array = arrays.get(key);
  if (array === undefined) throw new Error(`no array ${key}`);
  return array;
}

/** Element (i, j, k) of a C-ordered array of shape (_, n1, n2). */
function at3(data: ArrayLike<number>, shape: readonly number[], i: number, j: number, k: number) {
  return data[(i * shape[1] + j) * shape[2] + k];
}

const XGRID = bytesOf([1e-5, 0.1, 0.5], 8, (v, o, x) => {
  v.setFloat64(o, x, true);
});

describe.skipIf(!hasBundles)('loadNpz on the NNPDF school bundles', () => {
  // Expected values read independently with numpy 1.24 (np.load(...)[key][index]).
  it('should read HERACOMBCCEM: shapes, dtypes and values of the Fortran-ordered fktable', async () => {
    const arrays = await loadNpz(HERA);
    expect([...arrays.keys()]).toEqual(['xgrid', 'luminosity', 'fktable', 'covmat', 'D']);
    const fktable = get(arrays, 'fktable');
    expect(fktable.dtype).toBe('float64');
    expect(fktable.shape).toEqual([42, 9, 18]);
    const fk = npyAsFloat64(fktable, { file: HERA, key: 'fktable.npy' });
    expect(at3(fk, fktable.shape, 0, 0, 17)).toBe(0.0036165840470157536);
    expect(at3(fk, fktable.shape, 3, 2, 10)).toBe(0.0048109219574771055);
    expect(at3(fk, fktable.shape, 41, 8, 17)).toBe(-0.002315574619202784);
    expect(at3(fk, fktable.shape, 7, 4, 15)).toBe(0.0028251748551400622);
    expect(at3(fk, fktable.shape, 15, 4, 7)).toBe(-0.0012630743074217362);
    expect(at3(fk, fktable.shape, 0, 0, 5)).toBe(-0.0001559761549015772);
    expect(fk.reduce((sum, value) => sum + value, 0)).toBeCloseTo(44.6288344257916, 10);

    const luminosity = get(arrays, 'luminosity');
    expect(luminosity.dtype).toBe('int64');
    expect(npyAsIntegers(luminosity, { file: HERA })).toEqual([1, 2, 3, 4, 5, 6, 9, 10, 11]);
    const xgrid = get(arrays, 'xgrid');
    expect(xgrid.shape).toEqual([18]);
    expect(xgrid.data[0]).toBe(1.9999999999999954e-7);
    expect(xgrid.data[17]).toBe(1);
    const covmat = get(arrays, 'covmat');
    expect(covmat.shape).toEqual([42, 42]);
    expect(covmat.data[1 * 42 + 0]).toBe(0.004446368719652618);
    expect(covmat.data[3 * 42 + 7]).toBe(0.00033433805687688867);
    const data = get(arrays, 'D');
    expect(data.shape).toEqual([42]);
    expect([data.data[0], data.data[41]]).toEqual([1.93442, 0.0400048]);
  });

  it('should read SLACP: 33 points', async () => {
    const arrays = await loadNpz(SLAC);
    const fktable = get(arrays, 'fktable');
    expect(fktable.shape).toEqual([33, 9, 18]);
    const fk = npyAsFloat64(fktable, { file: SLAC });
    expect(at3(fk, fktable.shape, 32, 8, 17)).toBe(0.00026139128402229134);
    expect(at3(fk, fktable.shape, 10, 3, 12)).toBe(6.905443250418372e-18);
    expect(get(arrays, 'D').data[32]).toBe(0.08893);
    expect(get(arrays, 'covmat').data[33 * 33 - 1]).toBe(3.1147001784125e-5);
  });

  it('should name the member of a bundle whose compressed data was damaged', async () => {
    const bytes = Buffer.from(await readFile(HERA));
    // fktable.npy's data starts after its local header at byte 434 (30 + 11 name bytes + 20 extra)
    for (let i = 600; i < 700; i++) bytes[i] ^= 0xa5;
    const error = inputError(() => parseNpz(bytes, { file: HERA }));
    expect(error.key).toBe('fktable.npy');
    expect(error.message).toMatch(/corrupt zip/);
  });

  it('should reject a truncated bundle', async () => {
    const bytes = await readFile(HERA);
    expect(inputError(() => parseNpz(bytes.subarray(0, 30000), { file: HERA })).message).toMatch(
      /no end-of-central-directory record/,
    );
  });
});

describe('parseNpz on synthetic archives', () => {
  const npy = makeNpy({ descr: '<f8', shape: [3], data: XGRID });

  it('should read stored and deflated members and ignore non-npy ones', () => {
    const zip = makeZip([
      { name: 'xgrid.npy', bytes: npy, method: 0 },
      { name: 'copy.npy', bytes: npy, method: 8 },
      { name: 'README.txt', bytes: new TextEncoder().encode('notes'), method: 0 },
    ]);
    const arrays = parseNpz(zip, { file: 'synthetic.npz' });
    expect([...arrays.keys()]).toEqual(['xgrid', 'copy']);
    expect(get(arrays, 'copy').data).toEqual(new Float64Array([1e-5, 0.1, 0.5]));
    expect(get(arrays, 'xgrid').data).toEqual(new Float64Array([1e-5, 0.1, 0.5]));
  });

  it('should name the member that is not a valid array', () => {
    const truncated = npy.subarray(0, npy.length - 4);
    const zip = makeZip([
      { name: 'xgrid.npy', bytes: npy, method: 8 },
      { name: 'D.npy', bytes: truncated, method: 8 },
    ]);
    const error = inputError(() => parseNpz(zip, { file: 'b.npz' }));
    expect(error.message).toBe(
      'b.npz: D.npy: truncated data: shape [3] of <f8 needs 24 bytes, found 20',
    );
  });

  it('should catch a stored member whose CRC does not match', () => {
    const zip = makeZip([{ name: 'xgrid.npy', bytes: npy, method: 0 }]);
    zip[30 + 'xgrid.npy'.length + npy.length - 1] ^= 1;
    expect(inputError(() => parseNpz(zip, { file: 'b.npz' })).message).toBe(
      'b.npz: xgrid.npy: corrupt zip: the member fails its size or CRC-32 check',
    );
  });

  it('should refuse zip64 archives with a clear message', () => {
    const zip = makeZip([{ name: 'xgrid.npy', bytes: npy, method: 0 }]);
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    view.setUint16(zip.length - 22 + 10, 0xffff, true);
    expect(inputError(() => parseNpz(zip, { file: 'big.npz' })).message).toMatch(
      /^big\.npz: zip64 archives .* are not supported$/,
    );
  });

  it('should refuse a repeated array name', () => {
    const zip = makeZip([
      { name: 'D.npy', bytes: npy, method: 0 },
      { name: 'D.npy', bytes: npy, method: 8 },
    ]);
    expect(inputError(() => parseNpz(zip, { file: 'b.npz' })).message).toBe(
      'b.npz: D.npy: the archive holds this array twice',
    );
  });

  it('should report a missing file through loadNpy', async () => {
    await expect(loadNpy('/no/such/array.npy')).rejects.toThrow(
      /^\/no\/such\/array\.npy: cannot read the file/,
    );
  });
});
