import autocannon from 'autocannon';
import { RawHttpConnection } from './raw-http.js';

/**
 * The benches' HTTP load, GET or POST, in one of two shapes:
 *
 * - closed loop (no `ratePerSec`): N keep-alive connections, each sending its next request
 *   as soon as the last is answered (autocannon). This gives the rate at saturation; its
 *   latency is the loop's own queue (mean = connections / rate, by Little's law).
 * - open loop (`ratePerSec`): request i is due at start + i / rate, whatever the answers
 *   do, and goes out on a free connection of at most N; when all N are busy it waits for
 *   one. Its latency runs from the moment it was due, so time spent waiting in the client
 *   counts against the server (no coordinated omission). This gives the latency at a set
 *   rate. The connections are raw sockets (raw-http.ts), not node:http's client, whose
 *   CPU the server under test would otherwise share. autocannon's own `overallRate`
 *   cannot do this: it sends each connection's quota for the second back to back at the
 *   start of the second, then pauses, so a "paced" run of it is a closed loop at
 *   saturation for most of every second.
 */
export interface HttpLoadOptions {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  /** The path of request `seq`, counted from 1. */
  readonly path: string | ((seq: number) => string);
  /** The JSON body of request `seq` (POST). */
  readonly body?: ((seq: number) => string) | undefined;
  readonly connections: number;
  readonly durationSec: number;
  /** Requests a second over all connections (open loop); absent: closed loop. */
  readonly ratePerSec?: number | undefined;
  /** Whether an answer is good; default: any 2xx. The others count as bad with the errors. */
  readonly accept?: ((status: number, body: string) => boolean) | undefined;
}

export interface HttpLoadResult {
  readonly ok: number;
  /** Answers refused by `accept`, non-2xx answers and errors (timeouts, resets). */
  readonly bad: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  /** Good answers a second over the run. */
  readonly perSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Open loop: requests that were due (offered) over the run. */
  readonly offered?: number;
}

const TIMEOUT_MS = 10_000;

export function runHttpLoad(options: HttpLoadOptions): Promise<HttpLoadResult> {
  return options.ratePerSec === undefined ? closedLoop(options) : openLoop(options, options.ratePerSec);
}

function pathOf(options: HttpLoadOptions, seq: number): string {
  return typeof options.path === 'string' ? options.path : options.path(seq);
}

async function closedLoop(options: HttpLoadOptions): Promise<HttpLoadResult> {
  let seq = 0;
  let refused = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSec,
    timeout: TIMEOUT_MS / 1000,
    requests: [
      {
        method: options.method,
        ...(options.method === 'POST' && { headers: { 'content-type': 'application/json' } }),
        setupRequest(request) {
          seq += 1;
          request.path = pathOf(options, seq);
          if (options.body) request.body = options.body(seq);
          return request;
        },
        ...(options.accept && {
          onResponse(status: number, body: string) {
            if (status >= 200 && status < 300 && !options.accept?.(status, body)) refused += 1;
          },
        }),
      },
    ],
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));
  const ok = result['2xx'] - refused;
  return {
    ok,
    bad: refused + result.non2xx + result.errors,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
    perSec: ok / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

async function openLoop(options: HttpLoadOptions, ratePerSec: number): Promise<HttpLoadResult> {
  if (!(ratePerSec > 0)) throw new Error(`ratePerSec must be positive, got ${ratePerSec}`);
  const target = new URL(options.url);
  const free = Array.from({ length: options.connections }, () => new RawHttpConnection(target.hostname, Number(target.port), TIMEOUT_MS));
  const all = [...free];
  /** Requests that came due while every connection had one out: sent in order as connections free up. */
  const waiting: [seq: number, dueAt: number][] = [];
  const intervalMs = 1000 / ratePerSec;
  const total = Math.floor(options.durationSec * ratePerSec);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  let bad = 0;
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let inFlight = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const started = performance.now();

  const send = (seq: number, dueAt: number): void => {
    const connection = free.pop();
    if (!connection) {
      waiting.push([seq, dueAt]);
      return;
    }
    inFlight += 1;
    const settled = (): void => {
      inFlight -= 1;
      free.push(connection);
      const next = waiting.shift();
      if (next) send(...next);
      else if (sent === total && inFlight === 0) finish();
    };
    connection.request(options.method, pathOf(options, seq), options.body?.(seq)).then(
      ({ status, body }) => {
        statusCodes[status] = (statusCodes[status] ?? 0) + 1;
        const good = status >= 200 && status < 300;
        if (!good) non2xx += 1;
        if (good && (!options.accept || options.accept(status, body))) {
          ok += 1;
          latencies.push(performance.now() - dueAt);
        } else bad += 1;
        settled();
      },
      () => {
        errors += 1;
        bad += 1;
        settled();
      },
    );
  };

  // A 1 ms tick sends every request that has come due; each one's latency counts from its due time.
  const timer = setInterval(() => {
    const now = performance.now();
    while (sent < total && started + sent * intervalMs <= now) {
      sent += 1;
      send(sent, started + (sent - 1) * intervalMs);
    }
    if (sent === total) {
      clearInterval(timer);
      if (inFlight === 0 && waiting.length === 0) finish();
    }
  }, 1);
  await finished;
  for (const connection of all) connection.close();
  const seconds = Math.max(options.durationSec, (performance.now() - started) / 1000);
  latencies.sort((a, b) => a - b);
  const quantile = (q: number): number =>
    latencies.length === 0 ? 0 : (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { ok, bad, non2xx, errors, statusCodes, perSec: ok / seconds, p50Ms: quantile(0.5), p99Ms: quantile(0.99), offered: total };
}
