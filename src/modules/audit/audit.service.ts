import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { commitsOneStatementAlone } from '../../db/dialect.js';
import { groupWriteOf } from '../../db/group-write.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import * as repo from './audit.repo.js';
import { decodeAuditCursor, encodeAuditCursor } from './domain/audit-cursor.js';
import { entryColumns, type AuditActor, type AuditEntry, type AuditEntryInput } from './domain/audit-entry.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The retention job runs daily at this hour of UTC, when admin traffic is lowest in most zones. */
const PRUNE_HOUR_UTC = 3;
/** Entries one delete statement removes: short enough not to hold SQLite's writer for long. */
const PRUNE_BATCH = 1_000;

export interface AuditSettings {
  /** False: nothing is recorded (PATRON_AUDIT_LOG=off; the bench's baseline). */
  readonly enabled: boolean;
  /** Entries older than this many days are deleted by the daily `audit.prune` job. */
  readonly retentionDays: number;
}

export interface AuditQuery {
  readonly shopId?: string;
  readonly userId?: number;
  /** An exact action; ending in `.*`, every action under that prefix (`loyalty.*`). */
  readonly action?: string;
  readonly limit: number;
  /** A `next_cursor` this service answered. */
  readonly cursor?: string;
  /** The shops the reader is limited to; null: every shop, and entries of no shop. */
  readonly shops: readonly string[] | null;
}

export type AuditPage =
  | { readonly ok: true; readonly items: readonly AuditEntry[]; readonly nextCursor: string | null }
  | { readonly ok: false; readonly reason: 'bad_cursor' };

/**
 * The audit log (docs/audit-log.md): who changed what, when, and the state before and
 * after. Entries are written through the group write, so that a burst of admin writes
 * shares one commit and one fsync, and each `record` resolves once its entry is durable:
 * the capture hook awaits it before the answer leaves.
 */
export class AuditService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly jobs: JobQueue;
      readonly settings: AuditSettings;
    },
  ) {}

  get enabled(): boolean {
    return this.deps.settings.enabled;
  }

  /** Records one entry (a change, a sign-in); its values are redacted and bounded here. */
  async record(entry: AuditEntryInput): Promise<void> {
    if (!this.enabled) return;
    const row = entryColumns(entry, this.deps.clock.now());
    // One statement: alone where that commits best (PostgreSQL: durable at its commit, one
    // round trip instead of three), else in the group write's shared transaction and fsync.
    if (commitsOneStatementAlone(this.deps.db.dialect)) await repo.insertEntry(this.deps.db.db, row);
    else await groupWriteOf(this.deps.db).run((trx) => repo.insertEntry(trx, row));
  }

  /** A page of entries, newest first. */
  async list(query: AuditQuery): Promise<AuditPage> {
    let beforeId: number | undefined;
    if (query.cursor !== undefined) {
      beforeId = decodeAuditCursor(query.cursor);
      if (beforeId === undefined) return { ok: false, reason: 'bad_cursor' };
    }
    const prefix = query.action?.endsWith('.*') === true;
    const rows = await repo.listEntries(this.deps.db.db, {
      shopId: query.shopId,
      shops: query.shops ?? undefined,
      userId: query.userId,
      action: prefix ? query.action?.slice(0, -1) : query.action,
      actionPrefix: prefix,
      beforeId,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { ok: true, items: page.map(toEntry), nextCursor: rows.length > query.limit && last ? encodeAuditCursor(last.id) : null };
  }

  /**
   * Makes sure the daily retention job is queued (process start; safe from every process
   * at once: the job's key is its day, so they queue one).
   */
  async schedulePrune(): Promise<void> {
    const at = nextPruneAt(this.deps.clock.now());
    await this.deps.jobs.enqueue('audit.prune', { at }, { runAt: at, idempotencyKey: String(at) });
  }

  /** The `audit.prune` job: deletes entries past the retention, in batches, then queues the next day's run. */
  async runPrune(_payload: JobMap['audit.prune'], run: { readonly signal?: AbortSignal } = {}): Promise<number> {
    const cutoff = this.deps.clock.now() - this.deps.settings.retentionDays * DAY_MS;
    let deleted = 0;
    for (;;) {
      run.signal?.throwIfAborted();
      const n = await repo.deleteOlderThan(this.deps.db.db, cutoff, PRUNE_BATCH);
      deleted += n;
      if (n < PRUNE_BATCH) break;
    }
    await this.schedulePrune();
    return deleted;
  }
}

/** The next PRUNE_HOUR_UTC after `now`. */
export function nextPruneAt(now: number): number {
  const day = Math.floor(now / DAY_MS) * DAY_MS + PRUNE_HOUR_UTC * 60 * 60 * 1000;
  return day > now ? day : day + DAY_MS;
}

function toEntry(row: repo.AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    actor: actorOf(row),
    shopId: row.shop_id,
    method: row.method,
    path: row.path,
    route: row.route,
    action: row.action,
    status: row.status,
    before: parseJson(row.before),
    after: parseJson(row.after),
    ip: row.ip,
  };
}

function actorOf(row: repo.AuditRow): AuditActor {
  if (row.actor_kind === 'user' && row.actor_user_id !== null) {
    return { kind: 'user', userId: row.actor_user_id, email: row.actor_email ?? '', via: row.actor_via };
  }
  return { kind: 'superuser' };
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
