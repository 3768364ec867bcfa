import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/types.js';
import * as repo from './catalog.repo.js';

/** Beats per lease: seven beats may be missed (a long step, a slow database) before a live import looks dead. */
export const BEATS_PER_IMPORT_LEASE = 8;

/**
 * A running import's heartbeat: every leaseMs / BEATS_PER_IMPORT_LEASE it moves the
 * catalog row's `updated_at` (beginImport takes an import whose row stopped moving for
 * leaseMs to be dead), on a timer, so that it beats however slowly the feed arrives.
 * Only one synchronous step longer than the lease (SQLite answers synchronously) or one
 * beat held longer than it can stop it; on PostgreSQL a beat waits while the landing
 * holds the row, and a takeover waits for the same lock (see docs/catalog-import.md).
 * A beat still under way when the next is due is not doubled, and a beat that fails is
 * retried by the next one.
 */
export class ImportHeartbeat {
  /**
   * The longest real time, in ms, a reader could have found the row unmoved: from the
   * instant a beat wrote to the commit of the next one (or from start, or to stop).
   */
  longestGapMs = 0;
  private readonly beatMs: number;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private lastBeatAt = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly shopId: string,
    leaseMs: number,
  ) {
    this.beatMs = Math.max(1, Math.floor(leaseMs / BEATS_PER_IMPORT_LEASE));
  }

  start(): void {
    this.lastBeatAt = performance.now();
    this.timer = setInterval(() => this.beat(), this.beatMs);
    // A beat never keeps a process alive that has nothing else to do.
    this.timer.unref();
  }

  /** Stops beating; resolves once a beat under way has ended. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    this.noteBeat(performance.now());
  }

  private beat(): void {
    if (this.beating) return;
    const issuedAt = performance.now();
    this.beating = repo
      .touchCatalog(this.db, this.shopId, this.clock.now())
      .then(
        () => this.noteBeat(issuedAt),
        // The database may answer again before the lease runs out: the next beat retries.
        () => undefined,
      )
      .finally(() => {
        this.beating = undefined;
      });
  }

  private noteBeat(issuedAt: number): void {
    this.longestGapMs = Math.max(this.longestGapMs, performance.now() - this.lastBeatAt);
    this.lastBeatAt = issuedAt;
  }
}
