import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import { allowedRanges, Deadline, pinnedLookup, resolveAllowed, type AllowPrivate } from '../../../net/address-guard.js';
import { formatBytes, SafeFetchError, type SafeFetchFailure } from '../../../net/safe-fetch.errors.js';

/**
 * Long-lived HTTP/2 sessions to a push service (APNs), one per key (a shop's
 * credentials), reused by every send: APNs asks providers to keep their connections open
 * rather than connect per notification. Each connection goes through the private-address
 * guard and is pinned to the address judged when it was opened. A session that receives
 * GOAWAY, closes or fails is forgotten, and the next send opens a new one.
 */

export interface Http2Answer {
  readonly ok: true;
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface Http2PoolOptions {
  /** Extra trusted certificates (PEM): a local test peer's self-signed certificate. */
  readonly ca?: string | Buffer;
  /** A session with no request for this long is closed. */
  readonly idleMs?: number;
  /** Most sessions kept; the oldest is closed to make room. */
  readonly maxSessions?: number;
}

export interface Http2CallOptions {
  readonly headers: OutgoingHttpHeaders;
  readonly body: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly allowPrivate: AllowPrivate;
  readonly signal?: AbortSignal;
}

interface Slot {
  readonly session: Promise<ClientHttp2Session>;
  active: number;
}

export class Http2SessionPool {
  private readonly slots = new Map<string, Slot>();
  private opened = 0;

  constructor(private readonly options: Http2PoolOptions = {}) {}

  /** Sessions opened so far (a measure of reuse). */
  get sessionsOpened(): number {
    return this.opened;
  }

  /** Sessions open or opening now. */
  get sessionsOpen(): number {
    return this.slots.size;
  }

  /** POSTs `path` on `origin` over the session kept under `key`, opening it when there is none. */
  async post(key: string, origin: string, path: string, call: Http2CallOptions): Promise<Http2Answer | SafeFetchFailure> {
    const deadline = new Deadline(call.timeoutMs, call.signal, 'request');
    const slotKey = `${key}\u0000${origin}\u0000${JSON.stringify(call.allowPrivate)}`;
    try {
      for (let attempt = 0; ; attempt += 1) {
        const slot = this.slot(slotKey, origin, call.allowPrivate, deadline.signal);
        try {
          return await onSlot(slot, path, call, deadline.signal);
        } catch (error) {
          // The server never started this stream (GOAWAY raced the send, REFUSED_STREAM):
          // sending it again on a new session cannot deliver it twice.
          if (attempt > 0 || !(error instanceof UnsentRequest)) throw error;
          this.forget(slotKey, slot);
          void slot.session.then(closeSession, () => undefined);
        }
      }
    } catch (error) {
      return deadline.failure(error).toFailure();
    } finally {
      deadline.clear();
    }
  }

  async close(): Promise<void> {
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.all(slots.map((slot) => slot.session.then(closeSession, () => undefined)));
  }

  private slot(slotKey: string, origin: string, allowPrivate: AllowPrivate, signal: AbortSignal): Slot {
    const existing = this.slots.get(slotKey);
    if (existing) return existing;
    const slot: Slot = { session: this.open(slotKey, origin, allowPrivate, signal), active: 0 };
    // A failed connect is forgotten at once, so that the next send tries again.
    slot.session.catch(() => this.forget(slotKey, slot));
    this.slots.set(slotKey, slot);
    if (this.slots.size > (this.options.maxSessions ?? 500)) {
      const [oldestKey, oldest] = this.slots.entries().next().value as [string, Slot];
      this.forget(oldestKey, oldest);
      void oldest.session.then(closeSession, () => undefined);
    }
    return slot;
  }

  private async open(slotKey: string, origin: string, allowPrivate: AllowPrivate, signal: AbortSignal): Promise<ClientHttp2Session> {
    const target = new URL(origin);
    const address = await resolveAllowed(target, allowedRanges(allowPrivate), signal);
    this.opened += 1;
    const session = http2.connect(target.origin, {
      lookup: pinnedLookup(address),
      ...(this.options.ca ? { ca: this.options.ca } : {}),
    });
    const forgetThis = (): void => {
      const slot = this.slots.get(slotKey);
      if (slot)
        void slot.session.then(
          (s) => s === session && this.forget(slotKey, slot),
          () => undefined,
        );
    };
    session.on('goaway', forgetThis);
    session.on('close', forgetThis);
    session.on('error', forgetThis);
    session.setTimeout(this.options.idleMs ?? 10 * 60_000, () => session.close());
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        session.destroy();
        reject(signal.reason as Error);
      };
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      session.once('connect', () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
      session.once('error', (error: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      });
    });
    session.unref();
    return session;
  }

  private forget(slotKey: string, slot: Slot): void {
    if (this.slots.get(slotKey) === slot) this.slots.delete(slotKey);
  }
}

/** A request the server did not take: safe to send again. */
class UnsentRequest extends SafeFetchError {
  constructor() {
    super('unreachable', 'The push service closed the connection before taking the request.');
  }
}

async function onSlot(slot: Slot, path: string, call: Http2CallOptions, signal: AbortSignal): Promise<Http2Answer> {
  const session = await slot.session;
  slot.active += 1;
  // Referenced only while a request is in flight: an idle pool does not keep the process alive.
  session.ref();
  try {
    return await exchange(session, path, call, signal);
  } finally {
    slot.active -= 1;
    if (slot.active === 0 && !session.destroyed) session.unref();
  }
}

function exchange(session: ClientHttp2Session, path: string, call: Http2CallOptions, signal: AbortSignal): Promise<Http2Answer> {
  if (session.closed || session.destroyed) return Promise.reject(new UnsentRequest());
  const body = Buffer.from(call.body);
  return new Promise<Http2Answer>((resolve, reject) => {
    let stream: ClientHttp2Stream;
    try {
      stream = session.request({ ':method': 'POST', ':path': path, 'content-length': String(body.length), ...call.headers }, { signal });
    } catch {
      // ERR_HTTP2_GOAWAY_SESSION, ERR_HTTP2_INVALID_SESSION: the session is closing.
      reject(new UnsentRequest());
      return;
    }
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let seen = 0;
    stream.on('response', (received) => {
      headers = received;
      status = Number(received[':status'] ?? 0);
    });
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > call.maxBytes) {
        stream.destroy(new SafeFetchError('too_large', `The answer is larger than ${formatBytes(call.maxBytes)}.`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', (error: Error) => {
      reject(status === 0 && stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM ? new UnsentRequest() : error);
    });
    stream.on('end', () => resolve({ ok: true, status, headers, body: Buffer.concat(chunks) }));
    // A stream reset without an error code ends with neither 'end' nor 'error'.
    stream.on('close', () =>
      reject(
        status === 0 && stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM
          ? new UnsentRequest()
          : new SafeFetchError('unreachable', 'The push service closed the stream before answering.'),
      ),
    );
    stream.end(body);
  });
}

function closeSession(session: ClientHttp2Session): Promise<void> {
  if (session.closed || session.destroyed) return Promise.resolve();
  return new Promise((resolve) => session.close(() => resolve()));
}
