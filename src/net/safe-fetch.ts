import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { PATRON_VERSION } from '../version.js';
import { allowedRanges, Deadline, pinnedLookup, resolveAllowed, type Address, type AllowPrivate } from './address-guard.js';
import { formatBytes, networkError, SafeFetchError, type SafeFetchFailure } from './safe-fetch.errors.js';

export { SafeFetchError, type SafeFetchFailure, type SafeFetchFailureCode } from './safe-fetch.errors.js';

/**
 * The one way Patron fetches a link it was given by a shop (feed URLs, product pictures).
 *
 * - Only http and https.
 * - The host is resolved here, every address judged by net/ip-ranges.ts (loopback,
 *   private, link-local … refused unless `allowPrivate`), and the connection goes to the
 *   address that was judged: the socket's lookup is pinned to it, so a DNS answer that
 *   changes between check and connect (rebinding) cannot redirect us.
 * - Redirects are followed here, at most `maxRedirects`, each hop checked again.
 * - One deadline bounds the whole fetch, body included; one byte limit bounds the
 *   decoded body (a gzip bomb stops at the limit like a plain large file).
 */

export interface SafeFetchOptions {
  /** Largest body accepted, in bytes, after decoding any Content-Encoding. */
  readonly maxBytes: number;
  /** The whole fetch, from DNS to the last body byte, in milliseconds. */
  readonly timeoutMs: number;
  /** Accepted media type prefixes, e.g. `['image/']`; any type when absent. */
  readonly contentTypes?: readonly string[];
  /**
   * Non-public addresses that may be reached (config PATRON_FETCH_ALLOW_PRIVATE): `true`
   * for all of them, or a list of addresses and CIDR ranges (`10.1.2.3`, `fd00::/8`).
   */
  readonly allowPrivate?: AllowPrivate;
  /** Default 3. */
  readonly maxRedirects?: number;
  readonly signal?: AbortSignal;
}

export interface SafeFetchStreamSuccess {
  readonly ok: true;
  readonly status: number;
  /** The media type, lower case, without parameters; undefined when the server sent none. */
  readonly contentType: string | undefined;
  /** The decoded body; it errors with a SafeFetchError past the size or time limit. */
  readonly body: Readable;
  /** The link that answered, after redirects. */
  readonly url: string;
}

export interface SafeFetchBufferSuccess {
  readonly ok: true;
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: Buffer;
  readonly url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_MAX_REDIRECTS = 3;

export async function safeFetchStream(url: string, options: SafeFetchOptions): Promise<SafeFetchStreamSuccess | SafeFetchFailure> {
  const allowed = allowedRanges(options.allowPrivate);
  const deadline = new Deadline(options.timeoutMs, options.signal);
  try {
    let target = parseLink(url);
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    for (let redirects = 0; ; redirects += 1) {
      const address = await resolveAllowed(target, allowed, deadline.signal);
      const response = await request(target, address, deadline.signal);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && response.headers.location !== undefined) {
        response.destroy();
        if (redirects >= maxRedirects) {
          throw new SafeFetchError('too_many_redirects', `The link redirected more than ${maxRedirects} times.`);
        }
        target = parseLink(response.headers.location, target, 'The server redirected to an invalid link.');
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new SafeFetchError('http_status', `The server answered HTTP ${status}.`, status);
      }
      try {
        const contentType = mediaType(response.headers['content-type']);
        checkContentType(contentType, options.contentTypes);
        const length = Number(response.headers['content-length']);
        if (Number.isFinite(length) && length > options.maxBytes) {
          throw new SafeFetchError('too_large', `The file is larger than ${formatBytes(options.maxBytes)}.`);
        }
        const body = boundedBody(response, options.maxBytes, deadline);
        return { ok: true, status, contentType, body, url: target.href };
      } catch (error) {
        // Refused before the body was read: drop the connection rather than drain it.
        response.destroy();
        throw error;
      }
    }
  } catch (error) {
    deadline.clear();
    return deadline.failure(error).toFailure();
  }
}

/** safeFetchStream with the body read into memory (bounded by maxBytes). */
export async function safeFetchBuffer(url: string, options: SafeFetchOptions): Promise<SafeFetchBufferSuccess | SafeFetchFailure> {
  const result = await safeFetchStream(url, options);
  if (!result.ok) return result;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of result.body) chunks.push(chunk as Buffer);
  } catch (error) {
    return networkError(error).toFailure();
  }
  return { ...result, body: Buffer.concat(chunks) };
}

function parseLink(link: string, base?: URL, invalid = 'The link is not a valid URL.'): URL {
  let parsed: URL;
  try {
    parsed = new URL(link, base);
  } catch {
    throw new SafeFetchError('invalid_url', invalid);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SafeFetchError('invalid_url', 'Only http and https links can be fetched.');
  }
  return parsed;
}

function request(target: URL, address: Address, signal: AbortSignal): Promise<IncomingMessage> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: target.port === '' ? undefined : Number(target.port),
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        auth: target.username === '' ? undefined : `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`,
        headers: { 'user-agent': `Patron/${PATRON_VERSION}`, accept: '*/*', 'accept-encoding': 'gzip, deflate, br' },
        // No pooling: a pooled socket could have been opened by a fetch that was not pinned.
        agent: false,
        lookup: pinnedLookup(address),
        signal,
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The response body, decoded, counted and bound to the deadline: it errors with a
 * SafeFetchError once it passes `maxBytes` or the deadline passes, and the deadline's
 * timer stops when the body ends or the consumer destroys it.
 */
function boundedBody(response: IncomingMessage, maxBytes: number, deadline: Deadline): Readable {
  let seen = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(new SafeFetchError('too_large', `The file is larger than ${formatBytes(maxBytes)}.`));
      else callback(null, chunk);
    },
  });
  const decoder = decoderFor(response.headers['content-encoding']);
  const fail = (error: unknown): void => {
    if (!body.destroyed) body.destroy(deadline.failure(error));
  };
  const onAbort = (): void => fail(deadline.signal.reason);
  deadline.signal.addEventListener('abort', onAbort, { once: true });
  response.on('error', fail);
  if (decoder) {
    decoder.on('error', fail);
    response.pipe(decoder).pipe(body);
  } else {
    response.pipe(body);
  }
  body.on('close', () => {
    deadline.signal.removeEventListener('abort', onAbort);
    deadline.clear();
    // A consumer that stops early, or a body past its limit, releases the socket.
    response.destroy();
    decoder?.destroy();
  });
  return body;
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case undefined:
    case '':
    case 'identity':
      return undefined;
    default:
      throw new SafeFetchError('unreachable', 'The server sent the file in an encoding Patron cannot read.');
  }
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

function mediaType(header: string | undefined): string | undefined {
  const type = header?.split(';', 1)[0]?.trim().toLowerCase();
  return type === undefined || type === '' ? undefined : type;
}

function checkContentType(type: string | undefined, accepted: readonly string[] | undefined): void {
  if (accepted === undefined || accepted.length === 0) return;
  if (type !== undefined && accepted.some((prefix) => type.startsWith(prefix.toLowerCase()))) return;
  // The type is the server's text: quoted only when it looks like a media type.
  const shown = type !== undefined && MEDIA_TYPE.test(type) ? type : 'an unknown type';
  throw new SafeFetchError(
    'content_type',
    type === undefined ? 'The server did not say what type of file it sent.' : `The server sent ${shown}, which is not an accepted type.`,
  );
}
