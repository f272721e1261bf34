import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  FileSystemError,
  InputFileError,
  markCacheEntryUsed,
  trimCacheAfterWrite,
  userCacheFolder,
  type PartonfitError,
} from '@partonfit/core';
import {
  cacheKey,
  CONTENT_DIGEST_ATTRIBUTE,
  hdf5ContentDigest,
  readHdf5File,
  withContentDigest,
  writeHdf5File,
  type Hdf5Dataset,
  type Hdf5FileContents,
} from '@partonfit/io';
import {
  OPERATOR_LOWER_BAND_PER_DEGREE,
  type EvolutionOperator,
  type OperatorBlock,
} from './evolution-operator.js';
import {
  DEFAULT_INTERPOLATION_DEGREE,
  DEFAULT_MAX_STEP,
  type EvolutionOptions,
} from './evolution-run.js';
import { buildEvolutionOperatorInParallel } from './operator-in-parallel.js';
import type { TheoryCard } from './theory-card.js';

/**
 * The layout and algorithm version of a cached operator: part of the cache key, so a cache
 * written by another version is never read. Raise it with any change to how operators are built
 * or stored.
 */
export const OPERATOR_CACHE_FORMAT = 'partonfit-evolution-operator-1';

/** The package's version, also part of the key: an upgrade builds its operators afresh. */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** Where and how {@link cachedEvolutionOperator} caches. */
export interface OperatorCacheOptions {
  /**
   * Folder of the HDF5 cache (default the user's cache folder, `$XDG_CACHE_HOME/partonfit`);
   * `null` neither reads nor writes a cache.
   */
  readonly cacheFolder?: string | null;
  /** Called once for each output scale a build reaches, in order (not when read from the cache). */
  readonly onScale?: (done: number, total: number) => void;
  /**
   * Receives what went wrong with the cache without stopping the work: an InputFileError for a
   * damaged or unreadable cache file (rebuilt and overwritten), a FileSystemError (or an
   * InputFileError) naming the file when it could not be written. Default: ignored.
   */
  readonly onCacheProblem?: (problem: PartonfitError) => void;
  /**
   * Receives a line saying which least recently used cache entries were removed to keep the
   * cache under its size cap (`PARTONFIT_CACHE_MAX`) after the operator was written.
   */
  readonly onCacheTrimmed?: (message: string) => void;
}

/** An operator and where it came from. */
export interface CachedEvolutionOperator {
  readonly operator: EvolutionOperator;
  /** Whether it was read from the cache rather than built. */
  readonly fromCache: boolean;
  /** The cache file read or written; undefined without a cache or when writing it failed. */
  readonly cacheFile: string | undefined;
}

/**
 * The cache key of an operator: a hash of everything that determines it — the card's physics
 * settings (not its file name or ID), the solution method, the interpolation degree, the largest
 * step, what threshold knots hold, the sub-diagonals kept while building, the x-grid and the Q
 * grid — with
 * {@link OPERATOR_CACHE_FORMAT} and the package's version.
 */
export function operatorCacheKey(card: TheoryCard, options: EvolutionOptions): string {
  // the file and ID do not change the operator (undefined entries are left out of the key)
  const physics = { ...card, file: undefined, id: undefined, evolutionMethod: undefined };
  return cacheKey([
    OPERATOR_CACHE_FORMAT,
    PACKAGE_VERSION,
    physics,
    {
      method: options.method ?? card.evolutionMethod,
      interpolationDegree: options.interpolationDegree ?? DEFAULT_INTERPOLATION_DEGREE,
      maxStep: options.maxStep ?? DEFAULT_MAX_STEP,
      thresholdKnots: options.thresholdKnots ?? 'consistent',
      lowerBandPerDegree: OPERATOR_LOWER_BAND_PER_DEGREE,
      xGrid: Array.from(options.xGrid),
      qGrid: [...options.qGrid],
    },
  ]);
}

/**
 * The operator as HDF5 datasets: `x_grid` (x), `q_grid`, `alpha_s`, `active_flavours` (q), each
 * distinct block matrix once as `matrices/<k>` (x out, x in) — blocks that share a matrix share
 * it in the file —, and `blocks` (blocks, 4): scale index, output flavour, input flavour, k.
 */
function operatorDatasets(operator: EvolutionOperator): Record<string, Hdf5Dataset> {
  const n = operator.xGrid.length;
  const matrixIndex = new Map<Float64Array, number>();
  const datasets: Record<string, Hdf5Dataset> = {
    x_grid: { shape: [n], data: operator.xGrid },
    q_grid: { shape: [operator.qGrid.length], data: operator.qGrid },
    alpha_s: { shape: [operator.alphaS.length], data: operator.alphaS },
    active_flavours: {
      shape: [operator.activeFlavours.length],
      data: Int32Array.from(operator.activeFlavours),
    },
  };
  const rows: number[] = [];
  operator.blocks.forEach((blocks, q) => {
    for (const { output, input, matrix } of blocks) {
      let k = matrixIndex.get(matrix);
      if (k === undefined) {
        k = matrixIndex.size;
        matrixIndex.set(matrix, k);
        datasets[`matrices/${k}`] = { shape: [n, n], data: matrix };
      }
      rows.push(q, output, input, k);
    }
  });
  datasets.blocks = { shape: [rows.length / 4, 4], data: Int32Array.from(rows) };
  return datasets;
}

/** The operator stored in a cache file, checked against its checksum and its layout. */
function operatorOfContents(
  file: string,
  { datasets, attributes }: Hdf5FileContents,
  q0: number,
): EvolutionOperator {
  const fail = (key: string, problem: string) => new InputFileError({ file, key, problem });
  if (attributes.format !== OPERATOR_CACHE_FORMAT) {
    throw fail('format', `expected ${OPERATOR_CACHE_FORMAT}, got ${String(attributes.format)}`);
  }
  if (attributes[CONTENT_DIGEST_ATTRIBUTE] !== hdf5ContentDigest(attributes, datasets)) {
    throw fail(
      CONTENT_DIGEST_ATTRIBUTE,
      'the stored operator does not match its checksum: the file was damaged after it was written',
    );
  }
  const dataset = <T extends Hdf5Dataset['data']>(
    path: string,
    type: new (length: number) => T,
    shape: readonly number[],
  ): T => {
    const found = datasets.get(path);
    if (
      found === undefined ||
      !(found.data instanceof type) ||
      found.shape.length !== shape.length ||
      found.shape.some((axis, i) => axis !== shape[i])
    ) {
      throw fail(path, `expected a ${type.name} dataset of shape [${shape.join(', ')}]`);
    }
    return found.data;
  };
  const xGrid = datasets.get('x_grid')?.data;
  const qGrid = datasets.get('q_grid')?.data;
  if (!(xGrid instanceof Float64Array)) throw fail('x_grid', 'missing or not float64');
  if (!(qGrid instanceof Float64Array)) throw fail('q_grid', 'missing or not float64');
  const n = xGrid.length;
  const scales = qGrid.length;
  const alphaS = dataset('alpha_s', Float64Array, [scales]);
  const activeFlavours = Array.from(dataset('active_flavours', Int32Array, [scales]));
  const rows = datasets.get('blocks')?.shape[0] ?? 0;
  const table = dataset('blocks', Int32Array, [rows, 4]);
  const blocks: OperatorBlock[][] = Array.from({ length: scales }, () => []);
  for (let row = 0; row < rows; row++) {
    const [q, output, input, k] = table.subarray(4 * row, 4 * row + 4);
    if (!(q >= 0 && q < scales)) throw fail('blocks', `row ${row}: scale index ${q} out of range`);
    const matrix = dataset(`matrices/${k}`, Float64Array, [n, n]);
    blocks[q].push({ output, input, matrix });
  }
  return { xGrid, q0, qGrid, activeFlavours, alphaS, blocks };
}

/**
 * The evolution operator of a theory on an x-grid and a Q grid (see
 * {@link buildEvolutionOperator}), from the HDF5 cache when it holds it, otherwise built (on two
 * threads, {@link buildEvolutionOperatorInParallel}) and written to the cache atomically (`<cacheFolder>/evolution-operator-<key>.h5`, the key from
 * {@link operatorCacheKey}). A cache file whose checksum does not match, that HDF5 cannot read
 * or that is laid out otherwise is never used: the problem goes to `onCacheProblem` as an
 * InputFileError naming the file, and the operator is built again and the file replaced. The
 * operator read back equals the one built, bit for bit.
 *
 * @param card - the theory card
 * @param options - the grids and numerical settings
 * @param cache - the cache folder, a progress callback and where cache problems go
 * @throws InvalidArgumentError, InputFileError as {@link buildEvolutionOperator}
 */
export async function cachedEvolutionOperator(
  card: TheoryCard,
  options: EvolutionOptions,
  cache: OperatorCacheOptions = {},
): Promise<CachedEvolutionOperator> {
  const folder = cache.cacheFolder === undefined ? userCacheFolder() : cache.cacheFolder;
  const build = () =>
    buildEvolutionOperatorInParallel(
      card,
      options,
      cache.onScale === undefined ? {} : { onProgress: cache.onScale },
    );
  if (folder === null) return { operator: await build(), fromCache: false, cacheFile: undefined };
  const cacheFile = join(folder, `evolution-operator-${operatorCacheKey(card, options)}.h5`);
  if (existsSync(cacheFile)) {
    try {
      const operator = operatorOfContents(cacheFile, await readHdf5File(cacheFile), card.q0);
      await markCacheEntryUsed(cacheFile);
      return { operator, fromCache: true, cacheFile };
    } catch (error) {
      if (!InputFileError.isInstance(error)) throw error;
      cache.onCacheProblem?.(error);
    }
  }
  const operator = await build();
  try {
    await mkdir(folder, { recursive: true });
    await writeHdf5File(
      cacheFile,
      withContentDigest({
        datasets: operatorDatasets(operator),
        attributes: {
          format: OPERATOR_CACHE_FORMAT,
          theory_card: card.file,
          x_points: options.xGrid.length,
          q_points: options.qGrid.length,
        },
      }),
    );
  } catch (cause) {
    cache.onCacheProblem?.(
      FileSystemError.fromSystemError(cause, cacheFile) ??
        new InputFileError({
          file: cacheFile,
          problem: `could not cache the operator: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause,
        }),
    );
    return { operator, fromCache: false, cacheFile: undefined };
  }
  const trimmed = await trimCacheAfterWrite(folder, cacheFile);
  if (trimmed !== undefined) cache.onCacheTrimmed?.(trimmed);
  return { operator, fromCache: false, cacheFile };
}
