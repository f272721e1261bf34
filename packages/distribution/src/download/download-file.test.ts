import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadError } from '../download-error.js';
import { refusedUrl, startLocalServer, type LocalServer } from '@partonfit/testing/local-server';
import { downloadFile, type DownloadProgress } from './download-file.js';

/** 200 kB of bytes that differ from position to position. */
const BODY = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 251);

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function target(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'partonfit-download-')), 'archive.tgz');
}

async function rejection(promise: Promise<unknown>): Promise<DownloadError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!DownloadError.isInstance(error))
    throw new Error(`expected a DownloadError: ${String(error)}`);
  return error;
}

describe('downloadFile', () => {
  it('should download the file whole and report the bytes as they arrive', async () => {
    server = await startLocalServer({ '/a.tgz': BODY });
    const file = await target();
    const seen: DownloadProgress[] = [];
    const result = await downloadFile(`${server.url}a.tgz`, file, {
      what: 'a test archive',
      onProgress: (progress) => seen.push(progress),
    });
    expect(result).toEqual({ bytes: 200_000, resumedBytes: 0, transfers: 1 });
    expect(Buffer.from(await readFile(file)).equals(Buffer.from(BODY))).toBe(true);
    expect(seen[0]).toEqual({ url: `${server.url}a.tgz`, received: 0, total: 200_000 });
    expect(seen.at(-1)?.received).toBe(200_000);
    expect(seen.every((progress, i) => i === 0 || progress.received >= seen[i - 1].received)).toBe(
      true,
    );
    await expect(stat(`${file}.part`)).rejects.toThrow(/ENOENT/);
  });

  it('should resume with a Range request where a cut transfer broke off', async () => {
    server = await startLocalServer({ '/a.tgz': BODY }, { cutFirstResponse: { '/a.tgz': 65_536 } });
    const file = await target();
    const result = await downloadFile(`${server.url}a.tgz`, file, { what: 'a test archive' });
    // The client keeps what reached it before the cut: at most the 65,536 bytes sent.
    expect(result.bytes).toBe(200_000);
    expect(result.transfers).toBe(2);
    expect(result.resumedBytes).toBeGreaterThan(60_000);
    expect(result.resumedBytes).toBeLessThanOrEqual(65_536);
    expect(server.requests.map((request) => request.range)).toEqual([
      undefined,
      `bytes=${result.resumedBytes}-`,
    ]);
    expect(Buffer.from(await readFile(file)).equals(Buffer.from(BODY))).toBe(true);
  });

  it('should keep the part file when every attempt breaks off, and resume from it next time', async () => {
    server = await startLocalServer({ '/a.tgz': BODY }, { cutFirstResponse: { '/a.tgz': 30_000 } });
    const file = await target();
    const url = `${server.url}a.tgz`;
    const error = await rejection(downloadFile(url, file, { what: 'a test archive', attempts: 1 }));
    const kept = (await stat(`${file}.part`)).size;
    expect(kept).toBeGreaterThan(25_000);
    expect(kept).toBeLessThanOrEqual(30_000);
    expect(error.message).toMatch(
      new RegExp(`: the transfer broke off after ${kept} bytes \\(.*aborted\\)`),
    );
    expect(error.message).toContain(
      `; gave up after 1 attempt, ${kept} bytes are kept in ${file}.part: run the same command again to resume`,
    );
    expect(error.message.startsWith(url)).toBe(true);
    const result = await downloadFile(url, file, { what: 'a test archive' });
    expect(result.resumedBytes).toBe(kept);
    expect(server.requests.at(-1)?.range).toBe(`bytes=${kept}-`);
    expect(Buffer.from(await readFile(file)).equals(Buffer.from(BODY))).toBe(true);
  });

  it('should download a file that changed since the broken transfer whole (If-Range)', async () => {
    const files: Record<string, Uint8Array> = { '/a.tgz': BODY };
    server = await startLocalServer(files, { cutFirstResponse: { '/a.tgz': 30_000 } });
    const file = await target();
    const url = `${server.url}a.tgz`;
    await expect(downloadFile(url, file, { what: 'a test archive', attempts: 1 })).rejects.toThrow(
      /gave up after 1 attempt/,
    );
    const changed = BODY.map((byte) => 255 - byte);
    files['/a.tgz'] = changed;
    const result = await downloadFile(url, file, { what: 'a test archive' });
    expect(server.requests.at(-1)?.ifRange).toMatch(/^"[0-9a-f]{16}"$/);
    expect(result).toEqual({ bytes: 200_000, resumedBytes: 0, transfers: 1 });
    expect(Buffer.from(await readFile(file)).equals(Buffer.from(changed))).toBe(true);
    await expect(stat(`${file}.part.validator`)).rejects.toThrow(/ENOENT/);
  });

  it('should say the server has no such file on HTTP 404, naming the address', async () => {
    server = await startLocalServer({});
    const url = `${server.url}theory_9.tgz`;
    const error = await rejection(
      downloadFile(url, await target(), { what: "theory 9's archive" }),
    );
    expect(error.status).toBe(404);
    expect(error.message).toBe(`${url}: the server has no theory 9's archive (HTTP 404 Not Found)`);
  });

  it('should say the server cannot be reached when the connection is refused', async () => {
    const url = `${await refusedUrl()}a.tgz`;
    const file = await target();
    const error = await rejection(downloadFile(url, file, { what: 'a test archive' }));
    expect(error.message).toMatch(
      new RegExp(`^${url.replace(/[.]/g, '\\.')}: cannot reach the server \\(.*ECONNREFUSED`),
    );
    await expect(stat(`${file}.part`)).rejects.toThrow(/ENOENT/);
  });
});
