import type { IncomingHttpHeaders } from 'node:http';
import { systemClock, type Clock } from '../../../clock.js';
import type { SafeFetchFailure } from '../../../net/safe-fetch.errors.js';
import { safeRequest, type SafeResponse } from '../../../net/safe-request.js';
import type { SendContext, SendResult } from './provider.js';

/**
 * What the HTTP providers (http_sms, telegram, whatsapp, max) share: how a failed call
 * becomes a SendResult, Retry-After, and the vendor's words made fit for an admin.
 */

/** Deadline and answer size of one API call; tests shorten the deadline. */
export interface HttpProviderOptions {
  /** The whole call, DNS to last byte. Default 10 s. */
  readonly timeoutMs?: number;
  /** Largest answer read. Default 64 KB: these APIs answer with a small JSON object. */
  readonly maxBytes?: number;
  /** For a Retry-After given as an HTTP date. */
  readonly clock?: Clock;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 64 * 1024;

/** One API call of an HTTP vendor: its deadline and size limit, through the outbound guard of the send's context. */
export class ApiCaller {
  readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(options: HttpProviderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.clock = options.clock ?? systemClock;
  }

  call(
    url: string,
    request: { readonly method: 'GET' | 'POST'; readonly headers: Readonly<Record<string, string>>; readonly body?: string },
    context: SendContext,
  ): Promise<SafeResponse | SafeFetchFailure> {
    return safeRequest(url, {
      ...request,
      timeoutMs: this.timeoutMs,
      maxBytes: this.maxBytes,
      allowPrivate: context.allowPrivate,
      ...(context.signal && { signal: context.signal }),
    });
  }

  /** A JSON POST. */
  postJson(
    url: string,
    headers: Readonly<Record<string, string>>,
    body: unknown,
    context: SendContext,
  ): Promise<SafeResponse | SafeFetchFailure> {
    return this.call(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) },
      context,
    );
  }
}

/**
 * A call that got no HTTP answer. A refused address or a malformed URL is a settings
 * problem that retrying cannot fix; an oversized answer means the request was taken and
 * possibly acted on, so it is not sent again. Everything else (DNS, connection, deadline)
 * may pass.
 */
export function failedCall(failure: SafeFetchFailure, vendor: string): SendResult {
  switch (failure.code) {
    case 'invalid_url':
      return { ok: false, kind: 'permanent', message: `The ${vendor} URL in the channel settings is not valid.` };
    case 'refused_address':
      return {
        ok: false,
        kind: 'permanent',
        message: `The ${vendor} URL points to a local or private network address, which is not allowed.`,
      };
    case 'too_large':
      return { ok: false, kind: 'permanent', message: `The ${vendor} answer was too large to read; the message may have been sent.` };
    default:
      return { ok: false, kind: 'temporary', message: `${vendor}: ${failure.reason}` };
  }
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(headers: IncomingHttpHeaders, clock: Clock): number | undefined {
  const value = headers['retry-after'];
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - clock.now());
}

/** The answer as JSON, or undefined when it is not JSON. */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A field of a parsed JSON object, or undefined. */
export function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The vendor's own words on one line and short enough for a delivery log. */
export function vendorWords(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/** 429 and 5xx may pass; the rest of 4xx will not. */
export function isTemporaryStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** How one vendor's JSON API says what became of a message (readJsonAnswer). */
export interface JsonAnswerReading {
  /** The vendor's name in result messages: "<vendor> answered 403: …". */
  readonly vendor: string;
  /** Whether the answer reports the message sent; default: any 2xx status. */
  readonly sent?: (status: number, json: unknown) => boolean;
  /** The vendor's id of a sent message, when the answer names one. */
  readonly messageId: (json: unknown) => string | undefined;
  /** What follows "<vendor> answered <status>" in a refusal's message: the vendor's code and words, or "." */
  readonly describe: (json: unknown) => string;
  /** What a refusal is: the address is gone, it may pass, or it never will. */
  readonly classify: (status: number, json: unknown) => 'dead_address' | 'temporary' | 'permanent';
  /** A delay the answer's body asks for, in milliseconds; else Retry-After counts. */
  readonly retryAfterMs?: (json: unknown) => number | undefined;
}

/**
 * A JSON API's answer as a SendResult (telegram, whatsapp, max): a call with no answer
 * through failedCall, a sent one with the vendor's message id, a refusal classified by
 * the vendor's reading, a temporary one with the delay the vendor asked for.
 */
export function readJsonAnswer(answer: SafeResponse | SafeFetchFailure, reading: JsonAnswerReading, clock: Clock): SendResult {
  if (!answer.ok) return failedCall(answer, reading.vendor);
  const json = parseJson(answer.body);
  const sent = reading.sent ? reading.sent(answer.status, json) : answer.status >= 200 && answer.status < 300;
  if (sent) {
    const id = reading.messageId(json);
    return id === undefined ? { ok: true } : { ok: true, providerMessageId: id };
  }
  const message = `${reading.vendor} answered ${answer.status}${reading.describe(json)}`;
  const kind = reading.classify(answer.status, json);
  if (kind !== 'temporary') return { ok: false, kind, message };
  const retry = reading.retryAfterMs?.(json) ?? retryAfterMs(answer.headers, clock);
  return retry === undefined ? { ok: false, kind, message } : { ok: false, kind, message, retryAfterMs: retry };
}
