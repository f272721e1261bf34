import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InputFileError, type PartonfitError } from '@partonfit/core';
import { applyEvolutionOperator } from './apply-operator.js';
import { buildEvolutionOperator, type EvolutionOperator } from './evolution-operator.js';
import { cachedEvolutionOperator, operatorCacheKey } from './operator-cache.js';
import { toyPdfs, toyTheoryCard, X_GRID } from './toy-proton.fixture.js';

/** LO, exact: a quick build on the toy grid, crossing the charm and bottom thresholds. */
const card = toyTheoryCard('PTO: 0\nModEv: EXA');
const options = { xGrid: X_GRID, qGrid: [1.4, 2, 4.92, 4.92, 10, 100] };

/** Temporary folders of the tests, removed at the end. */
const folders: string[] = [];
async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-operator-cache-'));
  folders.push(folder);
  return folder;
}

/** The bytes of a float64 array, to compare values bit for bit. */
const bytesOf = (values: Float64Array) =>
  Buffer.from(values.buffer, values.byteOffset, values.byteLength);

/** Whether two operators are equal bit for bit, block by block. */
function expectIdentical(read: EvolutionOperator, built: EvolutionOperator): void {
  expect(bytesOf(read.xGrid).equals(bytesOf(built.xGrid))).toBe(true);
  expect(bytesOf(read.qGrid).equals(bytesOf(built.qGrid))).toBe(true);
  expect(bytesOf(read.alphaS).equals(bytesOf(built.alphaS))).toBe(true);
  expect(read.activeFlavours).toEqual(built.activeFlavours);
  expect(read.q0).toBe(built.q0);
  expect(read.blocks.map((blocks) => blocks.length)).toEqual(
    built.blocks.map((blocks) => blocks.length),
  );
  read.blocks.forEach((blocks, q) => {
    blocks.forEach((block, b) => {
      const expected = built.blocks[q][b];
      expect([block.output, block.input]).toEqual([expected.output, expected.input]);
      expect(bytesOf(block.matrix).equals(bytesOf(expected.matrix))).toBe(true);
    });
  });
}

describe('cachedEvolutionOperator', () => {
  let built: EvolutionOperator;
  beforeAll(() => {
    built = buildEvolutionOperator(card, options);
  });
  afterAll(async () => {
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('should build and cache the operator, then read it back bit for bit', async () => {
    const cacheFolder = await temporaryFolder();
    const scales: number[] = [];
    const first = await cachedEvolutionOperator(card, options, {
      cacheFolder,
      onScale: (done, total) => scales.push(done / total),
    });
    expect(first.fromCache).toBe(false);
    expect(scales).toEqual([1, 2, 3, 4, 5, 6].map((done) => done / 6));
    expect(first.cacheFile).toBe(
      join(cacheFolder, `evolution-operator-${operatorCacheKey(card, options)}.h5`),
    );
    expectIdentical(first.operator, built);
    const second = await cachedEvolutionOperator(card, options, {
      cacheFolder,
      onScale: () => scales.push(-1),
    });
    expect(second.fromCache).toBe(true);
    expect(scales).not.toContain(-1);
    expectIdentical(second.operator, built);
    const xf = toyPdfs(3);
    expect(
      bytesOf(applyEvolutionOperator(second.operator, xf, 3)).equals(
        bytesOf(applyEvolutionOperator(built, xf, 3)),
      ),
    ).toBe(true);
  });

  it('should key the cache by every setting that changes the operator, not by the card file', () => {
    const key = operatorCacheKey(card, options);
    expect(operatorCacheKey({ ...card, file: 'elsewhere.yaml', id: 7 }, options)).toBe(key);
    const changed = [
      operatorCacheKey({ ...card, alphaSRef: 0.119 }, options),
      operatorCacheKey({ ...card, masses: { ...card.masses, charm: 1.5 } }, options),
      operatorCacheKey(card, { ...options, method: 'TRN' }),
      operatorCacheKey(card, { ...options, maxStep: 0.01 }),
      operatorCacheKey(card, { ...options, interpolationDegree: 3 }),
      operatorCacheKey(card, { ...options, qGrid: [1.4, 2, 4.92, 4.92, 10, 101] }),
      operatorCacheKey(card, { ...options, xGrid: X_GRID.map((x, i) => (i === 0 ? x * 2 : x)) }),
    ];
    expect(new Set([key, ...changed]).size).toBe(changed.length + 1);
  });

  /** Caches the operator, damages the file, and asks again: the problems reported and the result. */
  async function afterDamage(damage: (cacheFile: string) => Promise<void>) {
    const cacheFolder = await temporaryFolder();
    const { cacheFile } = await cachedEvolutionOperator(card, options, { cacheFolder });
    if (cacheFile === undefined) throw new Error('expected a cache file');
    await damage(cacheFile);
    const problems: PartonfitError[] = [];
    const rebuilt = await cachedEvolutionOperator(card, options, {
      cacheFolder,
      onCacheProblem: (problem) => problems.push(problem),
    });
    const again = await cachedEvolutionOperator(card, options, { cacheFolder });
    return { cacheFile, problems, rebuilt, again };
  }

  it('should report a flipped bit of a matrix value by its checksum and rebuild, never use it', async () => {
    const matrix = built.blocks[3][0].matrix;
    const value = matrix.findIndex((entry) => entry !== 0 && entry !== 1);
    const { cacheFile, problems, rebuilt, again } = await afterDamage(async (file) => {
      const bytes = await readFile(file);
      const at = bytes.indexOf(bytesOf(matrix.subarray(value, value + 4)));
      if (at < 0) throw new Error('expected the matrix values in the file');
      bytes[at + 3] ^= 0x10;
      await writeFile(file, bytes);
    });
    expect(rebuilt.fromCache).toBe(false);
    expectIdentical(rebuilt.operator, built);
    expect(problems.map((problem) => problem.message)).toEqual([
      `${cacheFile}: content_sha256: the stored operator does not match its checksum: the file was damaged after it was written`,
    ]);
    expect(again.fromCache).toBe(true);
    expectIdentical(again.operator, built);
  });

  it('should report a truncated file that HDF5 cannot read and rebuild it', async () => {
    const { cacheFile, problems, rebuilt, again } = await afterDamage((file) =>
      truncate(file, 4096),
    );
    expect(rebuilt.fromCache).toBe(false);
    expectIdentical(rebuilt.operator, built);
    expect(problems).toHaveLength(1);
    expect(InputFileError.isInstance(problems[0])).toBe(true);
    expect(problems[0].message).toContain(`${cacheFile}: HDF5`);
    expect(again.fromCache).toBe(true);
  });

  it('should neither read nor write a cache with cacheFolder null', async () => {
    const userCache = await temporaryFolder();
    vi.stubEnv('XDG_CACHE_HOME', userCache);
    const uncached = await cachedEvolutionOperator(card, options, { cacheFolder: null });
    expect(uncached).toMatchObject({ fromCache: false, cacheFile: undefined });
    expectIdentical(uncached.operator, built);
    expect(await readdir(userCache)).toEqual([]);
    vi.unstubAllEnvs();
  });
});
