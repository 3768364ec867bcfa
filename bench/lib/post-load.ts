import { runHttpLoad, type HttpLoadResult } from './http-load.js';

/**
 * A write load: JSON POSTs to one path from N keep-alive connections, each request a
 * fresh body; as fast as the answers come, or open loop at `overallRate` requests a
 * second over all connections (bench/lib/http-load.ts says why that is not autocannon's
 * own pacing).
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

export type PostLoadResult = HttpLoadResult;

export function runPostLoad(options: PostLoadOptions): Promise<PostLoadResult> {
  const { overallRate, ...rest } = options;
  return runHttpLoad({ ...rest, method: 'POST', ratePerSec: overallRate });
}
