import autocannon from 'autocannon';

/**
 * A write load: JSON POSTs to one path from N keep-alive connections (no pipelining) for
 * a fixed time, each request a fresh body; as fast as the answers come, or paced at
 * `overallRate` requests a second over all connections (a latency measured at a set
 * rate rather than at saturation, where a closed loop only measures its own queue).
 */
export interface PostLoadOptions {
  readonly url: string;
  readonly path: string;
  readonly connections: number;
  readonly durationSec: number;
  readonly overallRate?: number | undefined;
  /** The body of request `seq`, counted from 1. */
  readonly body: (seq: number) => string;
  /** Whether an answer is good; the others count as bad with the non-2xx answers and the errors. */
  readonly accept: (status: number, body: string) => boolean;
}

export interface PostLoadResult {
  readonly ok: number;
  readonly bad: number;
  /** 2xx answers a second over the run. */
  readonly perSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export async function runPostLoad(options: PostLoadOptions): Promise<PostLoadResult> {
  let seq = 0;
  let bad = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSec,
    timeout: 10,
    ...(options.overallRate !== undefined && { overallRate: Math.max(1, Math.round(options.overallRate)) }),
    requests: [
      {
        method: 'POST',
        path: options.path,
        headers: { 'content-type': 'application/json' },
        setupRequest(request) {
          seq += 1;
          request.body = options.body(seq);
          return request;
        },
        onResponse(status, body) {
          if (!options.accept(status, body)) bad += 1;
        },
      },
    ],
  });
  return {
    ok: result['2xx'],
    bad: bad + result.non2xx + result.errors,
    perSec: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
