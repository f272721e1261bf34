import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  cacheEntries,
  cacheLimit,
  evictLeastRecentlyUsed,
  formatBytes,
  markCacheEntryUsed,
  parseAge,
  parseByteSize,
  trimCacheAfterWrite,
} from './user-cache.js';

const DAY = 86_400_000;

describe('the user cache', () => {
  let folder: string;

  /** A cache file of `bytes` bytes last used `days` ago. */
  async function entry(name: string, bytes: number, days: number): Promise<string> {
    const file = join(folder, name);
    await writeFile(file, Buffer.alloc(bytes));
    const when = new Date(Date.now() - days * DAY);
    await utimes(file, when, when);
    return file;
  }

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'partonfit-cache-'));
  });

  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(folder, { recursive: true, force: true });
  });

  it('should list the fit inputs and operators, least recently used first, and nothing else', async () => {
    await entry('fit-inputs-aa01.h5', 100, 3);
    await entry('evolution-operator-bb02.h5', 300, 10);
    await entry('fit-inputs-cc03.h5', 200, 1);
    await entry('notes.txt', 50, 20);
    await mkdir(join(folder, 'theories', 'theory_200'), { recursive: true });
    const entries = await cacheEntries(folder);
    expect(entries.map((each) => [each.kind, each.bytes])).toEqual([
      ['evolution-operator', 300],
      ['fit-inputs', 100],
      ['fit-inputs', 200],
    ]);
    expect(await cacheEntries(join(folder, 'absent'))).toEqual([]);
  });

  it('should remove the least recently used entries beyond the cap, never the one kept', async () => {
    const oldest = await entry('evolution-operator-0001.h5', 400, 30);
    await entry('fit-inputs-0002.h5', 300, 20);
    const recent = await entry('fit-inputs-0003.h5', 200, 1);
    const written = await entry('fit-inputs-0004.h5', 500, 40);
    await writeFile(join(folder, 'keep.txt'), 'not an entry');
    // 1400 bytes against a cap of 800: the two oldest but the one just written go
    const removed = await evictLeastRecentlyUsed(folder, 800, written);
    expect(removed.map((each) => each.file)).toEqual([oldest, join(folder, 'fit-inputs-0002.h5')]);
    expect((await readdir(folder)).sort()).toEqual([
      'fit-inputs-0003.h5',
      'fit-inputs-0004.h5',
      'keep.txt',
    ]);
    // using an entry makes it the most recent: the other one goes first
    await markCacheEntryUsed(written);
    expect((await stat(written)).mtimeMs).toBeGreaterThan((await stat(recent)).mtimeMs);
    expect((await evictLeastRecentlyUsed(folder, 600)).map((each) => each.file)).toEqual([recent]);
  });

  it('should trim after a write to $PARTONFIT_CACHE_MAX and say what it removed', async () => {
    await entry('fit-inputs-0001.h5', 2000, 5);
    const written = await entry('fit-inputs-0002.h5', 1500, 0);
    vi.stubEnv('PARTONFIT_CACHE_MAX', '3k');
    expect(await trimCacheAfterWrite(folder, written)).toBe(
      `removed 1 least recently used cache entry (2.0 kB) to keep ${folder} under 3.0 kB (PARTONFIT_CACHE_MAX)`,
    );
    expect(await trimCacheAfterWrite(folder, written)).toBeUndefined();
    vi.stubEnv('PARTONFIT_CACHE_MAX', 'lots');
    expect(await trimCacheAfterWrite(folder, written)).toBe(
      "the cache was not trimmed: PARTONFIT_CACHE_MAX: expected a size such as 5G, 500M or a number of bytes, got 'lots'",
    );
    expect(await readdir(folder)).toEqual(['fit-inputs-0002.h5']);
  });

  it('should read sizes, ages and the cap', () => {
    expect(parseByteSize('5G', 'size')).toBe(5e9);
    expect(parseByteSize('500 MB', 'size')).toBe(5e8);
    expect(parseByteSize('1.5t', 'size')).toBe(1.5e12);
    expect(parseByteSize('12345', 'size')).toBe(12345);
    expect([812, 3400, 141.9e6, 5e9].map(formatBytes)).toEqual([
      '812 B',
      '3.4 kB',
      '141.9 MB',
      '5.00 GB',
    ]);
    expect(() => parseByteSize('-1G', 'size')).toThrow('size: expected a size such as 5G');
    expect(parseAge('30d', 'age')).toBe(30 * DAY);
    expect(parseAge('12h', 'age')).toBe(DAY / 2);
    expect(parseAge('2w', 'age')).toBe(14 * DAY);
    expect(() => parseAge('30', 'age')).toThrow(
      "age: expected an age such as 30d, 12h or 2w, got '30'",
    );
    expect(cacheLimit({})).toBe(5e9);
    expect(cacheLimit({ PARTONFIT_CACHE_MAX: '20G' })).toBe(2e10);
  });
});
