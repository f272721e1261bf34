import { readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '../errors/index.js';
import { userCacheFolder } from './data-folder.js';

/**
 * The entries of partonfit's user cache (`$XDG_CACHE_HOME/partonfit`): the fit inputs and the
 * evolution operators partonfit built and can build again, each one HDF5 file. The downloads that
 * share the folder (`theories/`, `lhapdf/`: the default data folder) are never entries.
 *
 * @packageDocumentation
 */

/** The environment variable that caps the cache's size (default {@link DEFAULT_CACHE_LIMIT}). */
export const CACHE_LIMIT_VARIABLE = 'PARTONFIT_CACHE_MAX';

/** The cache's default size cap: 5 GB. */
export const DEFAULT_CACHE_LIMIT = 5e9;

/** What a cache entry holds. */
export type CacheEntryKind = 'fit-inputs' | 'evolution-operator';

/** One file of the cache. */
export interface CacheEntry {
  readonly file: string;
  readonly kind: CacheEntryKind;
  readonly bytes: number;
  /** When it was last written or read (its modification time, which a read renews). */
  readonly lastUsed: Date;
}

const ENTRY_NAME = /^(fit-inputs|evolution-operator)-[0-9a-f]+\.h5$/;

/** The cache's entries, least recently used first; none when the folder does not exist. */
export async function cacheEntries(folder = userCacheFolder()): Promise<CacheEntry[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const entries: CacheEntry[] = [];
  for (const name of names) {
    const match = ENTRY_NAME.exec(name);
    if (match === null) continue;
    const file = join(folder, name);
    try {
      const stats = await stat(file);
      if (!stats.isFile()) continue;
      entries.push({
        file,
        kind: match[1] as CacheEntryKind,
        bytes: stats.size,
        lastUsed: stats.mtime,
      });
    } catch {
      // removed by another process in the meantime
    }
  }
  return entries.sort((a, b) => a.lastUsed.getTime() - b.lastUsed.getTime());
}

/** Marks an entry as used now (for the least-recently-used eviction); a missing file is ignored. */
export async function markCacheEntryUsed(file: string): Promise<void> {
  const now = new Date();
  await utimes(file, now, now).catch(() => undefined);
}

/** Removes entries; returns the bytes freed (entries already gone count nothing). */
export async function removeCacheEntries(entries: readonly CacheEntry[]): Promise<number> {
  let freed = 0;
  for (const entry of entries) {
    try {
      await rm(entry.file);
      freed += entry.bytes;
    } catch {
      // removed by another process in the meantime
    }
  }
  return freed;
}

/** A size for people, in decimal units: `812 B`, `3.4 kB`, `141.9 MB`, `5.00 GB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${bytes} B`;
}

const SIZE = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i;
const SIZE_FACTORS: Readonly<Record<string, number>> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12 };

/**
 * A size such as `5G`, `500MB`, `2.5 GB` or `1000000` (bytes) in bytes; decimal units.
 *
 * @throws InvalidArgumentError naming `what` for anything else
 */
export function parseByteSize(text: string, what: string): number {
  const match = SIZE.exec(text.trim());
  if (match === null) {
    throw new InvalidArgumentError({
      argument: what,
      problem: `expected a size such as 5G, 500M or a number of bytes, got '${text}'`,
    });
  }
  return Number(match[1]) * (SIZE_FACTORS[match[2].toLowerCase()] ?? 1);
}

/** The cache's size cap in bytes: `$PARTONFIT_CACHE_MAX`, else {@link DEFAULT_CACHE_LIMIT}. */
export function cacheLimit(environment: NodeJS.ProcessEnv = process.env): number {
  const value = environment[CACHE_LIMIT_VARIABLE];
  return value === undefined || value === ''
    ? DEFAULT_CACHE_LIMIT
    : parseByteSize(value, CACHE_LIMIT_VARIABLE);
}

/**
 * Keeps the cache within `limit` bytes by removing its least recently used entries, never
 * `keep` (the entry just written or read).
 *
 * @returns the entries removed
 */
export async function evictLeastRecentlyUsed(
  folder: string,
  limit: number,
  keep?: string,
): Promise<CacheEntry[]> {
  const entries = await cacheEntries(folder);
  let total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  const removed: CacheEntry[] = [];
  for (const entry of entries) {
    if (total <= limit) break;
    if (entry.file === keep) continue;
    total -= entry.bytes;
    removed.push(entry);
  }
  await removeCacheEntries(removed);
  return removed;
}

const AGE = /^(\d+(?:\.\d+)?)\s*([hdw])$/i;
const AGE_HOURS: Readonly<Record<string, number>> = { h: 1, d: 24, w: 24 * 7 };

/**
 * An age such as `30d`, `12h` or `2w` in milliseconds.
 *
 * @throws InvalidArgumentError naming `what` for anything else
 */
export function parseAge(text: string, what: string): number {
  const match = AGE.exec(text.trim());
  if (match === null) {
    throw new InvalidArgumentError({
      argument: what,
      problem: `expected an age such as 30d, 12h or 2w, got '${text}'`,
    });
  }
  return Number(match[1]) * (AGE_HOURS[match[2].toLowerCase()] ?? 0) * 3_600_000;
}

/**
 * After an entry was written: removes the least recently used entries beyond the cap
 * ({@link cacheLimit}), never `written`, and says what it did — or, for a cap that cannot be
 * read, why nothing was removed. Never throws: a cache that stays too large loses nothing.
 *
 * @returns a line for the user, or undefined when nothing needed removing
 */
export async function trimCacheAfterWrite(
  folder: string,
  written: string,
): Promise<string | undefined> {
  try {
    const limit = cacheLimit();
    const removed = await evictLeastRecentlyUsed(folder, limit, written);
    if (removed.length === 0) return undefined;
    const bytes = removed.reduce((sum, entry) => sum + entry.bytes, 0);
    return `removed ${removed.length} least recently used cache entr${removed.length === 1 ? 'y' : 'ies'} (${formatBytes(bytes)}) to keep ${folder} under ${formatBytes(limit)} (${CACHE_LIMIT_VARIABLE})`;
  } catch (error) {
    return `the cache was not trimmed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
