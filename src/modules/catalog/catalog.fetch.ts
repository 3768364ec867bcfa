import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import { isAppError } from '../../errors.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import { safeFetchStream, type SafeFetchFailure, type SafeFetchStreamSuccess } from '../../net/safe-fetch.js';
import * as repo from './catalog.repo.js';
import type { FeedFormat, FeedImportInput, FeedImportResult } from './catalog.types.js';

/** The whole fetch of a feed, body included (a large feed on a slow link takes a while). */
export const FEED_FETCH_TIMEOUT_MS = 15 * 60_000;

/**
 * Enqueues the link of a shop's fetch chain due at `at`, and returns the instant it got.
 * The key names the shop and the instant, so enqueuing one link twice (a redelivered job,
 * two PATCHes at once) makes one job. A key already spent by a finished link (a new URL
 * set in the same millisecond a link ran) moves the instant on by a millisecond.
 */
export async function scheduleFetch(jobs: JobQueue, executor: Kysely<Database>, shopId: string, at: number): Promise<number> {
  for (let due = at; ; due += 1) {
    const { job, created } = await jobs.enqueue('catalog.fetch', { shopId, at: due }, { runAt: due, idempotencyKey: `${shopId}:${due}`, executor });
    if (created || job.status === 'queued') return due;
  }
}

/** Fetches a feed URL as a stream, within Patron's bounds for feeds. */
export function fetchFeed(
  url: string,
  config: Pick<Config, 'feedMaxBytes' | 'fetchAllowPrivate'>,
  signal?: AbortSignal,
): Promise<SafeFetchStreamSuccess | SafeFetchFailure> {
  return safeFetchStream(url, {
    maxBytes: config.feedMaxBytes,
    timeoutMs: FEED_FETCH_TIMEOUT_MS,
    allowPrivate: config.fetchAllowPrivate,
    ...(signal ? { signal } : {}),
  });
}

/** JSON when the server says so or the link ends in .json; YML otherwise (feeds come as text/xml, application/xml, octet-stream …). */
export function formatOfFetched(contentType: string | undefined, url: string): FeedFormat {
  if (contentType !== undefined && /[/+]json$/.test(contentType)) return 'json';
  try {
    if (new URL(url).pathname.toLowerCase().endsWith('.json')) return 'json';
  } catch {
    // Not a parseable link: fall through to YML, the native format.
  }
  return 'yml';
}

export interface FetchDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly config: Config;
  readonly importFeed: (input: FeedImportInput & { readonly maxBytes?: number }) => Promise<FeedImportResult>;
  readonly recordFailure: (shopId: string, error: string) => Promise<void>;
}

/**
 * One link of the chain: if it is still the shop's due link (the URL was not removed or
 * changed since it was scheduled), it moves next_fetch_at on and enqueues the next link in
 * one transaction, then fetches and imports. A delivery of a link that already ran (at
 * least once delivery) finds next_fetch_at moved and does nothing. A failed fetch or
 * import is recorded in the import log; the job itself succeeds, so the chain goes on.
 */
export async function fetchAndImport(deps: FetchDeps, payload: JobMap['catalog.fetch'], signal?: AbortSignal): Promise<void> {
  const now = deps.clock.now();
  const url = await deps.db
    .transaction()
    .execute(async (trx) => {
      const catalog = await repo.findCatalog(trx, payload.shopId);
      if (catalog?.feed_url == null || Number(catalog.next_fetch_at) !== payload.at) return undefined;
      const next = await scheduleFetch(deps.jobs, trx, payload.shopId, Math.max(now, payload.at) + catalog.refresh_minutes * 60_000);
      // Another delivery of this link moved the schedule first: undo the enqueue with the transaction.
      if (!(await repo.moveNextFetch(trx, payload.shopId, payload.at, next, now))) throw new LinkTaken();
      return catalog.feed_url;
    })
    .catch((error: unknown) => {
      if (error instanceof LinkTaken) return undefined;
      throw error;
    });
  if (url === undefined) return;

  const fetched = await fetchFeed(url, deps.config, signal);
  try {
    if (!fetched.ok) {
      await deps.recordFailure(payload.shopId, `The feed URL could not be fetched: ${fetched.reason}`);
      return;
    }
    await deps.importFeed({
      shopId: payload.shopId,
      format: formatOfFetched(fetched.contentType, fetched.url),
      body: fetched.body,
      source: 'url',
    });
  } catch (error) {
    // The import log holds the reason (a malformed feed, a body past the limit, a
    // conflict with an import in progress); retrying the link would not change it.
    if (!isAppError(error) && !(error instanceof Error && error.name === 'SafeFetchError')) throw error;
  } finally {
    if (fetched.ok) fetched.body.destroy();
  }
}

class LinkTaken extends Error {}
