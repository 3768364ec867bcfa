import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConnectionLimitsConfig } from '../config.js';
import { ALLOW_ANY_ORIGIN } from './cors.js';
import { errorBody } from './envelopes.js';
import { isAdminPath } from './not-found.plugin.js';

/**
 * Bounds on slow clients and open connections (docs/limits.md, "Slow clients"):
 *
 *  - headers: Node's headersTimeout, from the connection (on a kept-alive connection,
 *    from the next request's first byte) to the end of the request's headers;
 *  - body: the longest pause between two chunks of a request body (ours, below). A pause,
 *    not a deadline, because the feed upload streams up to PATRON_FEED_MAX_BYTES: a
 *    gigabyte that keeps arriving is fine however long it takes; a body that stops is not;
 *  - whole request: Node's requestTimeout, a generous backstop against a body trickled a
 *    byte at a time just inside the pause;
 *  - idle keep-alive: Node's keepAliveTimeout;
 *  - open connections: net.Server maxConnections; past it a new connection is closed at once.
 *
 * A request that overruns the headers, body or whole-request bound gets 408 and its
 * connection is closed. A body cut short is answered in the route's envelope; a request
 * whose headers never ended has no route yet and gets Fastify's plain 408.
 */

export interface ConnectionStats {
  /** Connections closed at once because maxConnections were open. */
  refusedConnections: number;
  /** Requests whose body stopped arriving for longer than the pause allowed. */
  bodyTimeouts: number;
}

/** The request line and headers of one request at most (docs/limits.md, "Slow clients"). */
export const MAX_HEADER_BYTES = 128 * 1024;

/** The Fastify server options that carry the bounds Node enforces itself. */
export function connectionServerOptions(limits: ConnectionLimitsConfig) {
  return {
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the headers and request deadlines on this period (30 s by default, which
      // would let a 20 s headers timeout run to 50 s); a quarter of the bound, 1 s at most.
      connectionsCheckingInterval: checkPeriod(limits.headersTimeoutMs),
      // A request line and headers up to this many bytes (Node's default is 16 KiB): GET
      // /recommend takes up to 10,000 excluded offer ids in its query string (an app's
      // infinite feed), about 70 KB of usual ids. Longer still is a 431 from Node.
      maxHeaderSize: MAX_HEADER_BYTES,
    },
  };
}

/** Sets the connection cap and the body pause on the app's server; returns live counters. */
export function applyConnectionLimits(app: FastifyInstance, limits: ConnectionLimitsConfig): ConnectionStats {
  const stats: ConnectionStats = { refusedConnections: 0, bodyTimeouts: 0 };
  const server = app.server;
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => {
    stats.refusedConnections += 1;
  });
  const bodies = new BodyWatch(limits.bodyIdleTimeoutMs, () => {
    stats.bodyTimeouts += 1;
  });
  // Root-level onRequest: runs for every route after the headers, before the body is read.
  app.addHook('onRequest', (request, reply, done) => {
    bodies.add(request.raw, reply.raw, () => bodyTimeoutAnswer(request));
    done();
  });
  return stats;
}

/**
 * The raw 408 for a body that stopped arriving, in the envelope of the route's scope
 * (contract-notes "Secrets and errors": every error body is the endpoint's envelope):
 * the admin error object under /admin/, the route's family on the public API. The
 * connection cannot carry another request after a body cut short, so it is closed.
 */
export function bodyTimeoutAnswer(request: FastifyRequest): string {
  const admin = isAdminPath(request.url);
  const body = JSON.stringify(
    admin
      ? { error: { code: 'REQUEST_TIMEOUT', message: BODY_TIMEOUT_MESSAGE } }
      : errorBody(request.routeOptions.config.envelope ?? 'status', BODY_TIMEOUT_MESSAGE),
  );
  return [
    'HTTP/1.1 408 Request Timeout',
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    // Public answers are readable cross-origin, errors included (http/cors.ts).
    ...(admin ? [] : [`Access-Control-Allow-Origin: ${ALLOW_ANY_ORIGIN}`]),
    '',
    body,
  ].join('\r\n');
}

const BODY_TIMEOUT_MESSAGE = 'The request body stopped arriving before it was complete.';

function checkPeriod(boundMs: number): number {
  return Math.max(25, Math.min(1000, Math.floor(boundMs / 4)));
}

function expectsBody(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
}

interface WatchedBody {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly socket: Socket;
  readonly answer: () => string;
  seen: number;
  lastProgress: number;
}

/**
 * Watches the bytes arriving on the sockets of requests whose body is incomplete. The
 * HTTP parser reads a socket natively, so neither 'data' events nor the socket's own
 * timeout can be used without changing how the body is consumed; `bytesRead` is counted
 * either way. One timer serves every watched body (most bodies of a busy /push complete
 * within the first tick), checking each a quarter of the bound apart (a second at most),
 * so a stall is answered that long after the bound at most.
 */
class BodyWatch {
  private readonly bodies = new Set<WatchedBody>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly onStall: () => void,
  ) {}

  add(request: IncomingMessage, response: ServerResponse, answer: () => string): void {
    const socket = request.socket;
    // app.inject's requests have no socket to watch (and no clock to run out).
    if (!(socket instanceof Socket) || !expectsBody(request)) return;
    this.bodies.add({ request, response, socket, answer, seen: socket.bytesRead, lastProgress: performance.now() });
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.check(), checkPeriod(this.idleMs));
      this.timer.unref();
    }
  }

  private check(): void {
    const now = performance.now();
    for (const body of this.bodies) {
      const { request, socket } = body;
      if (request.complete || socket.destroyed) {
        this.bodies.delete(body);
      } else if (socket.bytesRead !== body.seen) {
        body.seen = socket.bytesRead;
        body.lastProgress = now;
      } else if (now - body.lastProgress >= this.idleMs) {
        this.bodies.delete(body);
        this.cut(body);
      }
    }
    if (this.bodies.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private cut({ response, socket, answer }: WatchedBody): void {
    this.onStall();
    if (response.headersSent) {
      // An answer is already on its way (a 413 before the body, say): nothing to add.
      socket.destroy();
      return;
    }
    // As Node does for its own requestTimeout: the answer is written on the socket, which
    // is then closed; the body parser still waiting sees the connection end.
    socket.end(answer(), () => socket.destroy());
    // A client that does not read its answer does not hold the connection either.
    setTimeout(() => socket.destroy(), this.idleMs).unref();
  }
}
