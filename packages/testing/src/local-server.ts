import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from './free-port.js';

/**
 * A local HTTP server for tests of downloads (`partonfit get`): started by the test on
 * 127.0.0.1, stopped by it afterwards.
 *
 * @packageDocumentation
 */

/** A request the local server received. */
export interface ServedRequest {
  readonly path: string;
  /** The `Range` header, if any. */
  readonly range: string | undefined;
  /** The `If-Range` header, if any. */
  readonly ifRange?: string | undefined;
}

/** A local HTTP server on 127.0.0.1 serving files from memory, as NNPDF's and LHAPDF's do. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: ServedRequest[];
  /** Stops the server (and any open connection). */
  close(): Promise<void>;
}

/** Options of {@link startLocalServer}. */
export interface LocalServerOptions {
  /**
   * Cuts the first response for these paths after this many bytes of the body (the connection
   * is destroyed mid-transfer), as a dropped connection does.
   */
  readonly cutFirstResponse?: Readonly<Record<string, number>>;
}

/**
 * Starts a server on 127.0.0.1 (port 0: a free port) that serves `files` (path → bytes, e.g.
 * `/theories/theorydata.json`; the object may be changed while it runs), answers 404 for
 * anything else, sends an `ETag` (a hash of the bytes) and honours `Range: bytes=<n>-` with 206
 * and `Content-Range` — unless an `If-Range` names another ETag, then it sends the whole file.
 */
export async function startLocalServer(
  files: Readonly<Partial<Record<string, Uint8Array | string>>>,
  options: LocalServerOptions = {},
): Promise<LocalServer> {
  const requests: ServedRequest[] = [];
  const cut = new Map(Object.entries(options.cutFirstResponse ?? {}));
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    const range = request.headers.range;
    const ifRange = request.headers['if-range']?.toString();
    requests.push(ifRange === undefined ? { path, range } : { path, range, ifRange });
    const file = files[path];
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = Buffer.from(file);
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    const wanted = ifRange === undefined || ifRange === etag ? range : undefined;
    const start = Number(/^bytes=(\d+)-$/.exec(wanted ?? '')?.[1] ?? 0);
    if (start >= body.length && start > 0) {
      response.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    const headers: Record<string, string | number> = {
      'content-length': body.length - start,
      etag,
    };
    if (start > 0) headers['content-range'] = `bytes ${start}-${body.length - 1}/${body.length}`;
    response.writeHead(start > 0 ? 206 : 200, headers);
    const cutAt = cut.get(path);
    if (cutAt !== undefined) {
      cut.delete(path);
      response.write(body.subarray(start, start + cutAt), () => response.socket?.end());
      return;
    }
    response.end(body.subarray(start));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  };
}

/** An address on 127.0.0.1 where nothing listens: a port just freed. */
export async function refusedUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/`;
}
