import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Whether an error means the database cannot be reached right now (rather than that a
 * statement was wrong): PostgreSQL restarting, failing over or refusing connections, a
 * connection cut under a query, the pool's connect timeout. Such a request is answered
 * 503 in its endpoint's envelope (http/http-errors.ts), which a client may retry, instead
 * of 500; the node itself stays up and its pool reconnects on the next query.
 */

/** PostgreSQL SQLSTATEs of an unreachable or stopping server (Appendix A of its manual). */
const UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown: the server is stopping (a restart, a fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '08P01', // protocol_violation: a pooler answering for a server that went away
]);

/** Socket errors of a connection to the server that failed or was cut. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** The pg driver's own messages for a connection that ended or never came (it gives them no code). */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * Runs `work`, and again after each failure that says the database cannot be reached
 * (100 ms, doubling up to 2 s between tries), for up to `maxMs`; any other failure, or
 * the last, is thrown. For a write that must not be given up on: the outcome of
 * something already done outside (a message a vendor accepted).
 */
export async function whileDatabaseUnavailable<T>(work: () => Promise<T>, maxMs: number): Promise<T> {
  const deadline = performance.now() + maxMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || performance.now() + wait > deadline) throw error;
      await sleep(wait);
    }
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || SOCKET_CODES.has(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((text) => message.startsWith(text))) return true;
    current = cause;
  }
  return false;
}
