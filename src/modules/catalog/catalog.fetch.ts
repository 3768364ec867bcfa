import { setTimeout } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import { isAppError } from '../../errors.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import { safeFetchStream, type SafeFetchFailure, type SafeFetchStreamSuccess } from '../../net/safe-fetch.js';
import * as repo from './catalog.repo.js';
import { BEATS_PER_IMPORT_LEASE } from './import-heartbeat.js';
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
    const { job, created } = await jobs.enqueue(
      'catalog.fetch',
      { shopId, at: due },
      { runAt: due, idempotencyKey: `${shopId}:${due}`, executor },
    );
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

export interface FetchRun {
  /** Aborted when the job should give up (its lease was lost, the process stops). */
  readonly signal?: AbortSignal;
  /** 1 on the link's first run; more on a redelivery (its worker died, or the run failed). */
  readonly attempt?: number;
}

/**
 * One link of the chain: if it is still the shop's due link (the URL was not removed or
 * changed since it was scheduled), it moves next_fetch_at on and enqueues the next link in
 * one transaction, then fetches and imports. A delivery of a link that already ran (at
 * least once delivery) finds next_fetch_at moved and does nothing, unless its first run
 * died during the import it began (a worker killed): then it fetches and imports again,
 * once that import's lease has run out. A failed fetch or import is recorded in the
 * import log; the job itself succeeds, so the chain goes on.
 */
export async function fetchAndImport(deps: FetchDeps, payload: JobMap['catalog.fetch'], run: FetchRun = {}): Promise<void> {
  const now = deps.clock.now();
  const url = await deps.db
    .transaction()
    .execute(async (trx) => {
      const catalog = await repo.findCatalog(trx, payload.shopId);
      if (catalog?.feed_url == null) return undefined;
      if (Number(catalog.next_fetch_at) !== payload.at) {
        return (run.attempt ?? 1) > 1 && (await diedInItsImport(trx, catalog, payload)) ? catalog.feed_url : undefined;
      }
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
  // An import a killed process left running holds the shop until its lease runs out.
  await waitForRunningImport(deps, payload.shopId, run.signal);

  const fetched = await fetchFeed(url, deps.config, run.signal);
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

/**
 * True when the shop's latest import is one this link began (from the URL, since the
 * link was due) and it is still recorded as running: the run that began it died. Only a
 * redelivered link asks; an import that is in fact alive refuses the new one with 409.
 */
async function diedInItsImport(trx: Kysely<Database>, catalog: repo.CatalogRow, payload: JobMap['catalog.fetch']): Promise<boolean> {
  const latest = await repo.findImport(trx, catalog.shop_id, Number(catalog.last_generation));
  return latest?.status === 'running' && latest.source === 'url' && Number(latest.started_at) >= payload.at;
}

/**
 * Waits while the shop's latest import is recorded as running and its heartbeat is
 * recent, until it ends or its lease runs out (its process died), and at most a lease
 * and a beat of real time: an import still beating after that is alive, and the import
 * that follows is refused with 409 and logged as such.
 */
async function waitForRunningImport(deps: FetchDeps, shopId: string, signal: AbortSignal | undefined): Promise<void> {
  const leaseMs = deps.config.importLeaseMs;
  const pollMs = Math.max(1, Math.floor(leaseMs / BEATS_PER_IMPORT_LEASE));
  const giveUpAt = performance.now() + leaseMs + pollMs;
  for (;;) {
    const catalog = await repo.findCatalog(deps.db, shopId);
    const latest = catalog && (await repo.findImport(deps.db, shopId, Number(catalog.last_generation)));
    if (catalog === undefined || latest?.status !== 'running') return;
    const sinceBeat = deps.clock.now() - Number(catalog.updated_at);
    if (sinceBeat >= leaseMs || performance.now() >= giveUpAt) return;
    await setTimeout(Math.min(pollMs, leaseMs - sinceBeat), undefined, signal ? { signal } : {});
  }
}

class LinkTaken extends Error {}
