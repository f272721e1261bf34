import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { writeFileAtomic } from '@partonfit/io';
import { DownloadError } from '../download-error.js';
import { getResponse, networkReason, statusError } from './http-request.js';

/** How far a download is. */
export interface DownloadProgress {
  /** The address being downloaded. */
  readonly url: string;
  /** Bytes of the file on disk so far, including those of earlier, interrupted transfers. */
  readonly received: number;
  /** The file's size, when the server says it. */
  readonly total: number | undefined;
}

/** Options of {@link downloadFile}. */
export interface DownloadFileOptions {
  /** What is downloaded, for messages (e.g. `theory 200's archive`). */
  readonly what: string;
  /** Transfers tried before giving up, each resuming where the last broke off (default 4). */
  readonly attempts?: number;
  /** Receives the progress as bytes arrive. */
  readonly onProgress?: (progress: DownloadProgress) => void;
}

/** What {@link downloadFile} did. */
export interface DownloadedFile {
  /** The file's size in bytes. */
  readonly bytes: number;
  /**
   * Bytes the last transfer did not need to download: they were on disk from interrupted
   * transfers, this call's or an earlier run's.
   */
  readonly resumedBytes: number;
  /** Transfers made (1 when nothing broke off). */
  readonly transfers: number;
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/**
 * Keeps what identifies the version of the file being downloaded (its `ETag`, else its
 * `Last-Modified`) beside the part file, so that a resumed transfer asks for the rest of that
 * version only (`If-Range`): a server whose file changed since sends it whole.
 */
async function writeValidator(file: string, response: IncomingMessage): Promise<void> {
  const validator = response.headers.etag ?? response.headers['last-modified'];
  if (validator === undefined) await rm(file, { force: true });
  else await writeFileAtomic(file, validator);
}

async function readValidator(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')) || undefined;
  } catch {
    return undefined;
  }
}

/** The start and total of a `Content-Range: bytes <start>-<end>/<total>` header. */
function contentRange(response: IncomingMessage): { start: number; total: number | undefined } {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers['content-range'] ?? '');
  if (match === null) return { start: -1, total: undefined };
  return { start: Number(match[1]), total: match[2] === '*' ? undefined : Number(match[2]) };
}

/**
 * Downloads `url` to `file`, resumable: the bytes go to `<file>.part`, which an interrupted
 * transfer leaves behind and the next transfer continues with an HTTP `Range` request (this
 * call's next attempt, or a later call after the process ended), with `If-Range` naming the
 * version being downloaded (its ETag or Last-Modified, kept in `<file>.part.validator`). A
 * server that ignores the range or whose file changed (HTTP 200), or that no longer has the
 * range (416), is downloaded from the start. The part file is
 * renamed to `file` only once all the bytes the server announced have arrived.
 *
 * @throws DownloadError naming the address: the server cannot be reached, answers with an
 *   error status (404: it does not have the file), or every attempt broke off (the part file
 *   stays, to resume)
 */
export async function downloadFile(
  url: string,
  file: string,
  options: DownloadFileOptions,
): Promise<DownloadedFile> {
  const part = `${file}.part`;
  const attempts = options.attempts ?? 4;
  let lastProblem = '';
  const validatorFile = `${part}.validator`;
  for (let transfer = 1; transfer <= attempts; transfer++) {
    const offset = await sizeOf(part);
    const validator = offset > 0 ? await readValidator(validatorFile) : undefined;
    const response = await getResponse(
      url,
      offset > 0
        ? {
            range: `bytes=${offset}-`,
            ...(validator === undefined ? {} : { 'if-range': validator }),
          }
        : {},
    );
    const status = response.statusCode ?? 0;
    if (status === 416 && offset > 0) {
      response.resume();
      await rm(part, { force: true });
      transfer--;
      continue;
    }
    if (status !== 200 && status !== 206) throw statusError(url, response, options.what);
    const range = contentRange(response);
    const append = status === 206 && range.start === offset;
    if (status === 206 && !append) {
      response.resume();
      await rm(part, { force: true });
      lastProblem = `the server resumed at byte ${range.start}, not ${offset}`;
      continue;
    }
    const length = Number(response.headers['content-length'] ?? Number.NaN);
    const total = append ? range.total : Number.isFinite(length) ? length : undefined;
    let received = append ? offset : 0;
    options.onProgress?.({ url, received, total });
    const descriptor = openSync(part, append ? 'a' : 'w');
    try {
      // Flowing mode, each chunk written at once: a transfer that breaks off keeps every byte
      // that reached us (an async iterator would drop those still buffered).
      await new Promise<void>((resolve, reject) => {
        response.on('data', (chunk: Buffer) => {
          try {
            writeSync(descriptor, chunk);
          } catch (cause) {
            response.destroy(cause as Error);
            return;
          }
          received += chunk.length;
          options.onProgress?.({ url, received, total });
        });
        response.on('error', reject);
        response.on('close', () => {
          if (response.complete) resolve();
          else reject(new Error('the connection closed early'));
        });
      });
    } catch (cause) {
      lastProblem = `the transfer broke off after ${received} bytes (${networkReason(cause)})`;
      continue;
    } finally {
      closeSync(descriptor);
      // Only now: an await before the listeners are attached could miss the response's end.
      if (!append) await writeValidator(validatorFile, response);
    }
    if (total !== undefined && received !== total) {
      lastProblem = `the transfer ended after ${received} of ${total} bytes`;
      continue;
    }
    await rename(part, file);
    await rm(validatorFile, { force: true });
    return { bytes: received, resumedBytes: append ? offset : 0, transfers: transfer };
  }
  throw new DownloadError({
    url,
    problem: `${lastProblem}; gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}, ${await sizeOf(part)} bytes are kept in ${part}: run the same command again to resume`,
  });
}
