import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { dataFolder, InputFileError, InvalidArgumentError, theoriesFolder } from '@partonfit/core';
import { isGzip, isTar } from '@partonfit/io';
import { checkGzip, firstBytes, gzipHead, unpackArchive } from '../archive/unpack-archive.js';
import { DownloadError } from '../download-error.js';
import { downloadText } from '../download/http-request.js';
import { defaultServers, THEORY_INDEX, type Servers } from '../servers.js';
import { installArchive, type GetReporter } from './install-archive.js';
import { presentFolder, type GetResult } from './get-result.js';
import type { TarMember } from '../archive/tar-unpacker.js';

/** Options of {@link getTheory} and {@link getLhapdfSet}. */
export interface GetOptions {
  /** The data folder (default {@link dataFolder}: `$PARTONFIT_DATA` or the user's cache). */
  readonly dataFolder?: string | undefined;
  /** The servers (default {@link defaultServers}). */
  readonly servers?: Servers | undefined;
  /** Receives the download's progress and the stages after it. */
  readonly report?: GetReporter | undefined;
}

/** The file names a theory index lists, or an error naming the index. */
function indexFiles(text: string, url: string): string[] {
  let files: unknown;
  try {
    files = (JSON.parse(text) as { files?: unknown }).files;
  } catch {
    files = undefined;
  }
  if (!Array.isArray(files) || !files.every((file) => typeof file === 'string')) {
    throw new DownloadError({ url, problem: 'malformed index: expected JSON {"files": [...]}' });
  }
  return files;
}

/**
 * The address of theory `theoryId`'s archive: the first server whose index lists
 * `theory_<ID>.<extension>`, as upstream's loader looks for it.
 *
 * @throws DownloadError naming the indexes: none could be read (offline: each server's reason),
 *   or none lists the theory
 */
export async function findTheoryUrl(theoryId: number, servers: Servers): Promise<string> {
  const failures: DownloadError[] = [];
  const answered: string[] = [];
  let listed = 0;
  for (const base of servers.theoryUrls) {
    const index = `${base}${THEORY_INDEX}`;
    try {
      const files = indexFiles(await downloadText(index, "NNPDF's theory index"), index);
      const file = files.find((name) => name.split('.')[0] === `theory_${theoryId}`);
      if (file !== undefined) return `${base}${file}`;
      answered.push(index);
      listed += files.length;
    } catch (error) {
      if (!DownloadError.isInstance(error)) throw error;
      failures.push(error);
    }
  }
  if (answered.length === 0) {
    throw new DownloadError({
      url: failures[0]?.url ?? THEORY_INDEX,
      problem: `cannot read any of NNPDF's theory indexes: ${failures.map((failure) => failure.message).join('; ')}`,
      cause: failures[0],
    });
  }
  const unread =
    failures.length === 0 ? '' : ` (unread: ${failures.map((f) => f.message).join('; ')})`;
  throw new DownloadError({
    url: answered[0],
    problem: `no theory ${theoryId} on NNPDF's servers: the indexes ${answered.join(', ')} list ${listed} theories, not theory_${theoryId}${unread}`,
    status: 404,
  });
}

/**
 * Checks a compressed FK table inside a theory (a legacy `FK_<SET>.dat` is a gzip tar holding
 * one file): it must unpack completely and, if a tar, hold exactly one file.
 */
async function checkCompressedTable(file: string): Promise<void> {
  const head = await firstBytes(file);
  if (isGzip(head)) {
    const inner = await gzipHead(file);
    // Not a tar inside: decompress it all once, for its CRC. A tar is checked in one pass below.
    if (inner === undefined || !isTar(inner)) {
      await checkGzip(file);
      return;
    }
  } else if (!isTar(head)) {
    return;
  }
  const files = (await unpackArchive(file, undefined)).filter((member) => member.kind === 'file');
  if (files.length !== 1) {
    throw new InputFileError({
      file,
      problem: `expected an FK table archive holding one file, it holds ${files.length}`,
    });
  }
}

/** The layout of an NNPDF theory: a `fastkernel/` folder with at least one FK table, all sound. */
async function checkTheoryLayout(
  root: string,
  members: readonly TarMember[],
  archive: string,
): Promise<void> {
  const fastkernel = join(root, 'fastkernel');
  const tables = await readdir(fastkernel).catch(() => []);
  if (tables.length === 0) {
    const top = members[0]?.name.split('/')[0] ?? '';
    throw new InputFileError({
      file: archive,
      problem: `not laid out as an NNPDF theory: no FK table in ${top}/fastkernel/`,
    });
  }
  for (const table of tables) await checkCompressedTable(join(fastkernel, table));
}

/**
 * `partonfit get theory <ID>`: downloads NNPDF theory `theoryId` from NNPDF's servers into
 * `<data folder>/theories/theory_<ID>/` (see {@link installArchive}: resumable, checked,
 * unpacked atomically), unless it is already there.
 *
 * @throws InvalidArgumentError for an id that is not a non-negative integer; DownloadError
 *   (offline, unknown theory, broken transfer) naming the address; InputFileError naming the
 *   archive when it is corrupt or not laid out as a theory
 */
export async function getTheory(theoryId: number, options: GetOptions = {}): Promise<GetResult> {
  if (!Number.isSafeInteger(theoryId) || theoryId < 0) {
    throw new InvalidArgumentError({
      argument: 'theoryId',
      problem: `expected a non-negative integer, got ${theoryId}`,
    });
  }
  const target = join(theoriesFolder(dataFolder(options.dataFolder)), `theory_${theoryId}`);
  if (presentFolder(target)) return { folder: target, url: undefined, download: undefined };
  const url = await findTheoryUrl(theoryId, options.servers ?? defaultServers());
  const download = await installArchive({
    url,
    what: `theory ${theoryId}'s archive`,
    target,
    checkLayout: checkTheoryLayout,
    report: options.report,
  });
  return { folder: target, url, download };
}
