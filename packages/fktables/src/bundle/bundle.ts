import {
  cholesky,
  createMatrix,
  EVOLUTION_BASIS_SIZE,
  InputFileError,
  LinearAlgebraError,
  type Matrix,
} from '@partonfit/core';
import { loadNpz, npyAsFloat64, npyAsIntegers, type NpyArray } from '@partonfit/io';
import type { DisFkTable } from '../fktable/fk-table.js';

/**
 * A self-contained DIS dataset in one `.npz` (the NNPDF school bundles): FK table, x-grid,
 * active flavours, central data and covariance.
 */
export interface Bundle {
  /** Dataset name, by default the file name without `.npz` (e.g. `HERACOMBCCEM`). */
  readonly name: string;
  /** The file it was read from. */
  readonly file: string;
  /**
   * The FK table: `fktable` as the compact `(data, channel, x)` values, `luminosity` as the
   * channels (in the bundle's order), `xgrid` as the x-grid.
   */
  readonly fkTable: DisFkTable;
  /** The central experimental values `D`, shape `(data)`. */
  readonly data: Float64Array;
  /** The experimental covariance `covmat`, `(data, data)`, symmetric positive definite. */
  readonly covariance: Matrix;
}

/** The scale of the bundles' FK tables when a bundle does not say: NNPDF4.0's Q0, 1.65 GeV. */
export const BUNDLE_Q0 = 1.65;

/** Options of {@link bundleFromArrays}. */
export interface BundleFromArraysOptions {
  /** The file the arrays came from, for errors. */
  readonly file: string;
  /** The dataset name; by default the file name without `.npz`. */
  readonly name?: string;
  /** The FK tables' Q0 in GeV; the bundles do not store it. Default {@link BUNDLE_Q0}. */
  readonly q0?: number;
}

/** Options of {@link loadBundle}. */
export type LoadBundleOptions = Omit<BundleFromArraysOptions, 'file'>;

const KEYS = ['fktable', 'xgrid', 'luminosity', 'covmat', 'D'] as const;

/** Relative tolerance below which the covariance counts as symmetric. */
const SYMMETRY_TOLERANCE = 1e-10;

function shapeText(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

/**
 * A bundle from its arrays (as {@link loadNpz} returns them): `fktable` (data, channel, x),
 * `xgrid` (x), `luminosity` (channel) evolution-basis indices, `covmat` (data, data), `D` (data).
 * The prediction of point n is Σ_{c,a} fktable[n, c, a] · xf_{luminosity[c]}(xgrid[a]).
 *
 * @throws InputFileError - naming the file and the array (`key`), for a missing array, shapes
 *   that do not agree, a luminosity index outside 0…13 or repeated, an x outside (0, 1], a NaN
 *   or infinity, a non-symmetric covariance, or one that is not positive definite
 */
export function bundleFromArrays(
  arrays: ReadonlyMap<string, NpyArray>,
  options: BundleFromArraysOptions,
): Bundle {
  const { file } = options;
  const fail = (key: string, problem: string, cause?: unknown): never => {
    throw new InputFileError({ file, key, problem, cause });
  };
  const get = (key: (typeof KEYS)[number]): NpyArray => {
    const array = arrays.get(key);
    if (array === undefined) {
      return fail(
        key,
        `missing array (the bundle holds ${[...arrays.keys()].join(', ') || 'none'})`,
      );
    }
    return array;
  };
  const [fktable, xgrid, luminosity, covmat, central] = KEYS.map(get);
  const floats = (array: NpyArray, key: string): Float64Array => {
    const values = npyAsFloat64(array, { file, key });
    const bad = values.findIndex((value) => !Number.isFinite(value));
    if (bad !== -1) fail(key, `element ${bad} is ${values[bad]}`);
    return values;
  };

  if (fktable.shape.length !== 3) {
    fail('fktable', `expected shape (data, channel, x), got ${shapeText(fktable.shape)}`);
  }
  const [ndata, nc, nx] = fktable.shape;
  const expectShape = (array: NpyArray, key: string, expected: readonly number[], axes: string) => {
    if (shapeText(array.shape) !== shapeText(expected)) {
      fail(
        key,
        `shape ${shapeText(array.shape)} does not match fktable ${shapeText(fktable.shape)}: expected ${shapeText(expected)} ${axes}`,
      );
    }
  };
  expectShape(xgrid, 'xgrid', [nx], '(x)');
  expectShape(luminosity, 'luminosity', [nc], '(channel)');
  expectShape(covmat, 'covmat', [ndata, ndata], '(data, data)');
  expectShape(central, 'D', [ndata], '(data)');

  const channels = npyAsIntegers(luminosity, { file, key: 'luminosity' });
  channels.forEach((flavour, c) => {
    if (!Number.isInteger(flavour) || flavour < 0 || flavour >= EVOLUTION_BASIS_SIZE) {
      fail('luminosity', `index ${flavour} at position ${c} is outside the evolution basis 0…13`);
    }
    if (channels.indexOf(flavour) !== c) fail('luminosity', `index ${flavour} appears twice`);
  });
  const xGrid = floats(xgrid, 'xgrid');
  const outside = xGrid.findIndex((x) => x <= 0 || x > 1);
  if (outside !== -1)
    fail('xgrid', `x = ${xGrid[outside]} at position ${outside} is outside (0, 1]`);
  const values = floats(fktable, 'fktable');
  const data = floats(central, 'D');
  const covariance = createMatrix(ndata, ndata, floats(covmat, 'covmat'));
  checkCovariance(covariance, (problem, cause) => fail('covmat', problem, cause));

  const name = options.name ?? (file.split(/[\\/]/).pop() ?? file).replace(/\.npz$/, '');
  const fkTable: DisFkTable = {
    name,
    file,
    hadronic: false,
    q0: options.q0 ?? BUNDLE_Q0,
    ndata,
    xGrid,
    channels,
    values,
    cFactors: [],
  };
  return { name, file, fkTable, data, covariance };
}

/** Calls `fail` unless the covariance is symmetric (to 1e-10 relative) and positive definite. */
function checkCovariance(
  covariance: Matrix,
  fail: (problem: string, cause?: unknown) => never,
): void {
  const { rows: n, data } = covariance;
  const largest = data.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const difference = Math.abs(data[i * n + j] - data[j * n + i]);
      if (difference > SYMMETRY_TOLERANCE * largest) {
        fail(
          `not symmetric: elements (${i}, ${j}) and (${j}, ${i}) differ by ${difference.toExponential(3)}`,
        );
      }
    }
  }
  try {
    cholesky(covariance);
  } catch (cause) {
    if (!LinearAlgebraError.isInstance(cause)) throw cause;
    fail(`not positive definite (${cause.message})`, cause);
  }
}

/**
 * Reads an `.npz` bundle (see {@link bundleFromArrays}).
 *
 * @throws InputFileError - when the file cannot be read, is not a valid npz, or its arrays are
 *   not a valid bundle
 */
export async function loadBundle(file: string, options: LoadBundleOptions = {}): Promise<Bundle> {
  return bundleFromArrays(await loadNpz(file), { ...options, file });
}
