import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  CACHE_LIMIT_VARIABLE,
  cacheEntries,
  cacheLimit,
  dataFolder,
  formatBytes,
  lhapdfFolder,
  parseAge,
  removeCacheEntries,
  theoriesFolder,
  userCacheFolder,
  type CacheEntry,
} from '@partonfit/core';
import { readHdf5Attributes } from '@partonfit/io';
import { defineCommand, UsageError } from './define-command.js';

const USAGE = 'partonfit cache [clean (--older-than <age, e.g. 30d> | --all)]';

/** How long ago, in the largest whole unit: `just now`, `5 min ago`, `3 h ago`, `12 d ago`. */
function ago(date: Date, now: number): string {
  const minutes = Math.floor((now - date.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ago`;
  return `${Math.floor(minutes / (24 * 60))} d ago`;
}

/** What the skeleton of a fit-inputs cache file says it holds: datasets and replicas. */
function fitInputsContent(skeleton: unknown): string {
  if (typeof skeleton !== 'string') return 'fit inputs';
  try {
    const tree = JSON.parse(skeleton) as {
      datasets?: { name?: unknown }[];
      replicas?: unknown[];
    };
    const names = (tree.datasets ?? []).map(({ name }) => String(name));
    const shown = names.length > 3 ? `${names.slice(0, 3).join(', ')}, …` : names.join(', ');
    const replicas = tree.replicas?.length ?? 0;
    return `${names.length} dataset${names.length === 1 ? '' : 's'} (${shown}), ${replicas} replica${replicas === 1 ? '' : 's'}`;
  } catch {
    return 'fit inputs';
  }
}

/** What an entry belongs to, from its HDF5 attributes alone. */
async function entryContent(entry: CacheEntry): Promise<string> {
  let attributes: Record<string, unknown>;
  try {
    attributes = await readHdf5Attributes(entry.file);
  } catch {
    return 'unreadable (rebuilt when next needed)';
  }
  if (entry.kind === 'fit-inputs') return fitInputsContent(attributes.skeleton);
  const card =
    typeof attributes.theory_card === 'string' ? attributes.theory_card : 'a theory card';
  const grid =
    typeof attributes.x_points === 'number' && typeof attributes.q_points === 'number'
      ? `, ${attributes.x_points} x × ${attributes.q_points} Q`
      : '';
  return `${card}${grid}`;
}

/** The bytes of every file under `folder`; 0 when it does not exist. */
async function folderBytes(folder: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(folder, { recursive: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const name of names) {
    const stats = await stat(join(folder, name)).catch(() => undefined);
    if (stats?.isFile() === true) total += stats.size;
  }
  return total;
}

/** The listing: one line per entry, the total, and the downloads that share the folder. */
async function listCache(folder: string, out: (text: string) => void): Promise<void> {
  const entries = await cacheEntries(folder);
  const limit = cacheLimit();
  out(`${folder}: cap ${formatBytes(limit)} (${CACHE_LIMIT_VARIABLE})\n`);
  const now = Date.now();
  const kinds = { 'fit-inputs': 'fit inputs', 'evolution-operator': 'evolution operator' };
  for (const entry of [...entries].reverse()) {
    out(
      `  ${kinds[entry.kind].padEnd(18)} ${formatBytes(entry.bytes).padStart(10)}  used ${ago(entry.lastUsed, now).padEnd(11)} ${await entryContent(entry)}  ${basename(entry.file)}\n`,
    );
  }
  const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  out(
    `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, ${formatBytes(total)}; partonfit builds each again when needed\n`,
  );
  if (dataFolder() === folder) {
    const downloads = [theoriesFolder(folder), lhapdfFolder(folder)];
    const sizes = await Promise.all(downloads.map(folderBytes));
    const held = downloads.flatMap((path, i) =>
      sizes[i] > 0 ? [`${basename(path)}/ ${formatBytes(sizes[i])}`] : [],
    );
    if (held.length > 0) {
      out(
        `downloads in the same folder (partonfit get; never removed by cache clean): ${held.join(', ')}\n`,
      );
    }
  }
}

/** `--older-than`'s age in milliseconds; a usage error for anything but e.g. `30d`, `12h`, `2w`. */
function ageOption(text: string): number {
  try {
    return parseAge(text, '--older-than');
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * `partonfit cache`: lists the user cache's entries (the fit inputs and evolution operators
 * partonfit built: size, last use, what they belong to), and `partonfit cache clean` removes
 * those unused for longer than `--older-than` or `--all` of them. Downloads in the same folder
 * (the default data folder's `theories/` and `lhapdf/`) are listed but never removed.
 */
export const cacheCommand = defineCommand({
  name: 'cache',
  summary: 'list the cached fit inputs and evolution operators, or clean them',
  usage: USAGE,
  options: {
    'older-than': { type: 'string' },
    all: { type: 'boolean' },
  },
  positionals: [0, 1],
  run: async ({ values, positionals }, terminal) => {
    const folder = userCacheFolder();
    if (positionals.length === 0) {
      if (values['older-than'] !== undefined || values.all === true) {
        throw new UsageError('--older-than and --all go with `partonfit cache clean`');
      }
      await listCache(folder, terminal.out);
      return;
    }
    const [action] = positionals;
    if (action !== 'clean') throw new UsageError(`unknown action '${action}': expected clean`);
    const olderThan = values['older-than'];
    if ((olderThan === undefined) === (values.all !== true)) {
      throw new UsageError('say what to remove: --older-than <age> (e.g. 30d) or --all');
    }
    const entries = await cacheEntries(folder);
    const cutoff = olderThan === undefined ? Infinity : Date.now() - ageOption(olderThan);
    const removed = entries.filter((entry) => entry.lastUsed.getTime() < cutoff);
    const freed = await removeCacheEntries(removed);
    const kept = entries.length - removed.length;
    terminal.out(
      `removed ${removed.length} of ${entries.length} cache entries (${formatBytes(freed)}) from ${folder}; ${kept} kept\n`,
    );
  },
});
