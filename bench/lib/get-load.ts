import autocannon from 'autocannon';

/**
 * A read load: GET requests from N keep-alive connections for a fixed time, the path of
 * each request chosen by `pathFor(seq)` (so that lookups rotate over a catalog).
 */
export interface GetLoadOptions {
  readonly url: string;
  readonly pathFor: (seq: number) => string;
  readonly connections: number;
  readonly durationSec: number;
}

export interface GetLoadResult {
  readonly ok: number;
  readonly non2xx: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  readonly errors: number;
  readonly perSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export async function runGetLoad(options: GetLoadOptions): Promise<GetLoadResult> {
  let seq = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSec,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        setupRequest(request) {
          seq += 1;
          request.path = options.pathFor(seq);
          return request;
        },
      },
    ],
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
  );
  return {
    ok: result['2xx'],
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    perSec: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
