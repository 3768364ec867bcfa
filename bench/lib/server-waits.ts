import { scrapeMetrics } from './scrape.js';

/**
 * What the server itself saw during a run, from its /metrics before and after: its own
 * request latency, and on SQLite what the file made it wait for (db/sqlite/storage-timings.ts).
 * A p99 that missed its target is then read off the same run: behind slow fsyncs (the
 * disk), behind the write lock (the job thread, a checkpoint holding writers), or
 * neither (the event loop was busy: CPU).
 */

/** One histogram series: cumulative counts by upper bound (seconds), and the count. */
interface Series {
  readonly buckets: ReadonlyMap<number, number>;
  readonly count: number;
}

type Scrape = ReadonlyMap<string, Series>;

const BUCKET = /^([a-zA-Z_:][\w:]*)_bucket\{(.*)\} (\S+)$/;
const LABEL = /(\w+)="([^"]*)"/g;

/** The histogram series of a Prometheus text, keyed `name{labels other than le}`. */
export function parseHistograms(text: string): Scrape {
  const series = new Map<string, { buckets: Map<number, number>; count: number }>();
  for (const line of text.split('\n')) {
    const match = BUCKET.exec(line);
    if (!match) continue;
    const [, name, labelText, value] = match as unknown as [string, string, string, string];
    let le = Number.NaN;
    const others: string[] = [];
    for (const [, key, labelValue] of labelText.matchAll(LABEL)) {
      if (key === 'le') le = labelValue === '+Inf' ? Number.POSITIVE_INFINITY : Number(labelValue);
      else others.push(`${key}="${labelValue}"`);
    }
    const key = `${name}{${others.sort().join(',')}}`;
    const entry = series.get(key) ?? { buckets: new Map<number, number>(), count: 0 };
    entry.buckets.set(le, Number(value));
    if (le === Number.POSITIVE_INFINITY) entry.count = Number(value);
    series.set(key, entry);
  }
  return series;
}

/** The server's histograms now; undefined for a server without /metrics (the bare app). */
export async function scrapeHistograms(baseUrl: string): Promise<Scrape | undefined> {
  const text = await scrapeMetrics(baseUrl);
  return text === undefined ? undefined : parseHistograms(text);
}

/** Observations of `key` between two scrapes: how many, and how many above `seconds` (a bucket bound). */
function between(before: Scrape, after: Scrape, key: string, seconds: number): { count: number; over: number } {
  const a = after.get(key);
  if (!a) return { count: 0, over: 0 };
  const b = before.get(key);
  const count = a.count - (b?.count ?? 0);
  const under = (a.buckets.get(seconds) ?? 0) - (b?.buckets.get(seconds) ?? 0);
  return { count, over: count - under };
}

/** Every series of one histogram name (all label values), summed. */
function summed(before: Scrape, after: Scrape, name: string, seconds: number): { count: number; over: number } {
  let count = 0;
  let over = 0;
  for (const key of after.keys()) {
    if (!key.startsWith(`${name}{`)) continue;
    const part = between(before, after, key, seconds);
    count += part.count;
    over += part.over;
  }
  return { count, over };
}

/**
 * One line: how many of the server's answers to `route` took over 10 and over 25 ms (bucket
 * bounds of http_request_duration_seconds), and on SQLite the fsyncs, lock waits and
 * checkpoints over their bounds.
 */
export function describeServerWaits(
  before: Scrape | undefined,
  after: Scrape | undefined,
  options: { method: string; route: string },
): string | undefined {
  if (!before || !after) return undefined;
  const key = `http_request_duration_seconds{method="${options.method}",route="${options.route}"}`;
  const over10 = between(before, after, key, 0.01);
  const over25 = between(before, after, key, 0.025);
  const parts = [`answers over 10 ms ${over10.over}, over 25 ms ${over25.over} of ${over10.count}`];
  const syncs = between(before, after, 'patron_sqlite_wal_sync_seconds{}', 0.005);
  if (syncs.count > 0) {
    const slow = between(before, after, 'patron_sqlite_wal_sync_seconds{}', 0.025);
    parts.push(`log fsyncs ${syncs.count}, over 5 ms ${syncs.over}, over 25 ms ${slow.over}`);
  }
  const locks = between(before, after, 'patron_sqlite_write_lock_wait_seconds{}', 0.005);
  if (locks.count > 0) {
    const slow = between(before, after, 'patron_sqlite_write_lock_wait_seconds{}', 0.025);
    parts.push(`write-lock waits over 5 ms ${locks.over}, over 25 ms ${slow.over} (of ${locks.count} writes)`);
  }
  const checkpoints = summed(before, after, 'patron_sqlite_checkpoint_seconds', 0.01);
  if (checkpoints.count > 0) {
    const passive = between(before, after, 'patron_sqlite_checkpoint_seconds{mode="passive"}', 0.01);
    // FULL and RESTART hold writers back: every checkpoint but the passive ones.
    parts.push(
      `checkpoints ${checkpoints.count}, holding writers ${checkpoints.count - passive.count} (over 10 ms ${checkpoints.over - passive.over})`,
    );
  }
  return `server: ${parts.join('; ')}`;
}
