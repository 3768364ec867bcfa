import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { PATRON_VERSION } from '../version.js';
import { allowedRanges, Deadline, pinnedLookup, resolveAllowed, type AllowPrivate } from './address-guard.js';
import { formatBytes, SafeFetchError, type SafeFetchFailure } from './safe-fetch.errors.js';

/**
 * An API call to a URL a shop configured (an SMS gateway, a messenger's bot API, a push
 * service): the same private-address guard and pinned connection as safeFetch, one
 * deadline for the whole exchange and a bounded response body. Unlike safeFetch it sends
 * any method with a body, follows no redirects (an API that redirects a POST is
 * misconfigured, and following it would resend the payload) and returns every HTTP status
 * as an answer: the caller decides what a 429 or a 500 means for its vendor.
 */

export interface SafeRequestOptions {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** The whole exchange, from DNS to the last body byte, in milliseconds. */
  readonly timeoutMs: number;
  /** Largest response body read, in bytes. */
  readonly maxBytes: number;
  readonly allowPrivate?: AllowPrivate;
  readonly signal?: AbortSignal;
}

export interface SafeResponse {
  readonly ok: true;
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export async function safeRequest(url: string, options: SafeRequestOptions): Promise<SafeResponse | SafeFetchFailure> {
  const deadline = new Deadline(options.timeoutMs, options.signal, 'request');
  try {
    const target = parseApiUrl(url);
    const address = await resolveAllowed(target, allowedRanges(options.allowPrivate), deadline.signal);
    const client = target.protocol === 'https:' ? https : http;
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    return await new Promise<SafeResponse>((resolve, reject) => {
      const req = client.request(
        {
          protocol: target.protocol,
          hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: target.port === '' ? undefined : Number(target.port),
          path: `${target.pathname}${target.search}`,
          method: options.method,
          auth: target.username === '' ? undefined : `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`,
          headers: {
            'user-agent': `Patron/${PATRON_VERSION}`,
            accept: 'application/json, */*',
            ...(body === undefined ? {} : { 'content-length': String(body.length) }),
            ...options.headers,
          },
          // No pooling: a pooled socket could have been opened by a call that was not pinned.
          agent: false,
          lookup: pinnedLookup(address),
          signal: deadline.signal,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let seen = 0;
          response.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (seen > options.maxBytes) {
              response.destroy(new SafeFetchError('too_large', `The answer is larger than ${formatBytes(options.maxBytes)}.`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('error', reject);
          response.on('end', () =>
            resolve({ ok: true, status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  } catch (error) {
    return deadline.failure(error).toFailure();
  } finally {
    deadline.clear();
  }
}

function parseApiUrl(link: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(link);
  } catch {
    throw new SafeFetchError('invalid_url', 'The link is not a valid URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SafeFetchError('invalid_url', 'Only http and https links can be called.');
  }
  return parsed;
}
