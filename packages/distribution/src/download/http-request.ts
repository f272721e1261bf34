import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { DownloadError } from '../download-error.js';

/** Redirects followed before a request gives up. */
const MAX_REDIRECTS = 5;

/** Seconds without a byte from the server before a request is abandoned. */
export const IDLE_SECONDS = 60;

/** Why a request failed before the server answered, in words: the error code and message. */
export function networkReason(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code === undefined || message.includes(code) ? message : `${code}: ${message}`;
}

/**
 * Sends a GET request for `url` and resolves to the response once its headers arrived, after
 * following redirects. The body is left unread. `Accept-Encoding: identity` is always sent: the
 * archives are already compressed, and CERN's servers are known to label them as gzip content
 * encoding otherwise.
 *
 * @throws DownloadError naming the address when the server cannot be reached (offline, refused,
 *   unknown host, no answer within {@link IDLE_SECONDS}) or redirects too often
 */
export function getResponse(
  url: string,
  headers: Readonly<Record<string, string>> = {},
  redirectsLeft = MAX_REDIRECTS,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    let request;
    try {
      request = send(url, {
        headers: { 'accept-encoding': 'identity', 'user-agent': 'partonfit', ...headers },
      });
    } catch (cause) {
      reject(new DownloadError({ url, problem: `not a valid address (${networkReason(cause)})` }));
      return;
    }
    request.setTimeout(IDLE_SECONDS * 1000, () => {
      request.destroy(new Error(`no answer within ${IDLE_SECONDS} s`));
    });
    request.on('error', (cause) => {
      reject(
        new DownloadError({
          url,
          problem: `cannot reach the server (${networkReason(cause)}); offline? check the network connection`,
          cause,
        }),
      );
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location !== undefined) {
        response.resume();
        if (redirectsLeft === 0) {
          reject(new DownloadError({ url, problem: 'too many redirects', status }));
          return;
        }
        resolve(getResponse(new URL(location, url).href, headers, redirectsLeft - 1));
        return;
      }
      resolve(response);
    });
    request.end();
  });
}

/**
 * The error for a response whose status is not the one expected: a clear "not found" for 404.
 *
 * @param what - what was asked for, e.g. `theory 200's archive`
 */
export function statusError(url: string, response: IncomingMessage, what: string): DownloadError {
  response.resume();
  const status = response.statusCode ?? 0;
  const problem =
    status === 404
      ? `the server has no ${what} (HTTP 404 Not Found)`
      : `the server answered HTTP ${status}${response.statusMessage === undefined ? '' : ` ${response.statusMessage}`} for ${what}`;
  return new DownloadError({ url, problem, status });
}

/**
 * The body of `url` as text (an index).
 *
 * @throws DownloadError when the server cannot be reached, answers with an error status or the
 *   transfer breaks off
 */
export async function downloadText(url: string, what: string): Promise<string> {
  const response = await getResponse(url);
  if (response.statusCode !== 200) throw statusError(url, response, what);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response) chunks.push(chunk as Buffer);
  } catch (cause) {
    throw new DownloadError({
      url,
      problem: `the transfer of ${what} broke off (${networkReason(cause)})`,
      cause,
    });
  }
  return Buffer.concat(chunks).toString('utf8');
}
