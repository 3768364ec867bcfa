import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import { firstLinkAt, HOUR_MS, nextLinkAt, SWEEP_BATCH } from './domain/upkeep.js';
import type { LedgerWrite, LoyaltyLedger } from './loyalty-ledger.js';
import * as repo from './loyalty-upkeep.repo.js';

export interface UpkeepDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly ledger: LoyaltyLedger;
  /** Lots per read (SWEEP_BATCH); tests make it small to cross batch boundaries. */
  readonly batchSize?: number;
}

export interface SweepResult {
  /** Pending lots confirmed. */
  readonly confirmed: number;
  /** Lots whose left-over was written off. */
  readonly expired: number;
  /** Minor units written off. */
  readonly writtenOff: number;
}

export interface SweepRun {
  /** Checked between batches: a run that lost its job's lease stops; the next delivery finishes. */
  readonly signal?: AbortSignal;
}

/**
 * The ledger's upkeep (docs/loyalty.md, "Upkeep"): pending lots become confirmed at their
 * confirms_at, and what is left of a lot at its expires_at is written off as an `expiry`
 * entry. Each shop has one chain of `loyalty.sweep` jobs; its next link's instant is kept
 * in loyalty_upkeep, so that the chain never forks however many callers start it.
 *
 * For the services that credit (rewards, referrals, manual credits): after a credit of a
 * pending lot or of a lot that expires, call `ensureScheduled(shopId, lotDueAt(spec))`
 * (domain/upkeep.ts) once the ledger write has committed.
 */
export class LoyaltyUpkeepService {
  constructor(private readonly deps: UpkeepDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  private get batchSize(): number {
    return this.deps.batchSize ?? SWEEP_BATCH;
  }

  /**
   * Confirms every pending lot of the shop whose confirms_at has come and writes off
   * every lot with something left whose expires_at has come, reading SWEEP_BATCH lots at
   * a time through the partial indexes and writing once per member of a batch. Safe to
   * run twice at once or again after a crash: the ledger's writes are conditional, so a
   * lot already confirmed or written off is passed over.
   */
  async sweep(shopId: string, run: SweepRun = {}): Promise<SweepResult> {
    const now = this.deps.clock.now();
    let confirmed = 0;
    let expired = 0;
    let writtenOff = 0;
    await this.eachDueBatch(
      (after) => repo.listDueConfirms(this.db, shopId, now, after, this.batchSize),
      run,
      async (w, lotId) => {
        if (await w.confirmLot(lotId)) confirmed += 1;
      },
      shopId,
    );
    await this.eachDueBatch(
      (after) => repo.listDueExpiries(this.db, shopId, now, after, this.batchSize),
      run,
      async (w, lotId) => {
        const amount = await w.expireLot(lotId);
        if (amount > 0) {
          expired += 1;
          writtenOff += amount;
        }
      },
      shopId,
    );
    return { confirmed, expired, writtenOff };
  }

  /**
   * One link of the shop's chain: sweeps, then, if it is still the shop's next link,
   * schedules the next one at the earliest due instant (within a minute and an hour,
   * domain/upkeep.ts) or ends the chain when nothing will be due. A link delivered again
   * (its worker died) sweeps again, which finishes what the dead run left.
   */
  async runLink(payload: JobMap['loyalty.sweep'], run: SweepRun = {}): Promise<void> {
    await this.sweep(payload.shopId, run);
    const now = this.deps.clock.now();
    const earliest = await repo.findEarliestDue(this.db, payload.shopId);
    const next = nextLinkAt(now, earliest, await repo.hasActiveHolds(this.db, payload.shopId));
    // The chain row first, then the job, as ensureScheduled does: one lock order, no deadlock.
    const moved = await this.db.transaction().execute(async (trx) => {
      // Not the shop's next link any more (a stale or repeated one): nothing to schedule.
      if (!(await repo.moveNextSweep(trx, payload.shopId, payload.at, next, now))) return false;
      if (next === null) return true;
      const at = await scheduleSweep(this.deps.jobs, trx, payload.shopId, next);
      if (at !== next) await repo.moveNextSweep(trx, payload.shopId, next, at, now);
      return true;
    });
    // A lot credited while this link looked found the chain due and left it alone: look
    // once more, now that anyone crediting sees the new next link (or none).
    if (moved) {
      const again = nextLinkAt(
        now,
        await repo.findEarliestDue(this.db, payload.shopId),
        await repo.hasActiveHolds(this.db, payload.shopId),
      );
      await this.ensureScheduled(payload.shopId, again);
    }
  }

  /**
   * Makes sure the shop's chain runs by `dueAt` (at once when it has come, and within the
   * hour however far off it is): starts the chain, moves its next link earlier, or
   * replaces a link whose job failed for good by one that runs at once. A live chain due
   * by then is left alone.
   * Call it after committing a credit of a pending lot or of a lot that expires; null
   * does nothing.
   */
  async ensureScheduled(shopId: string, dueAt: number | null): Promise<void> {
    if (dueAt === null) return;
    const now = this.deps.clock.now();
    let at = firstLinkAt(now, dueAt);
    // Most credits find the chain due soon enough: a read spares them the row lock.
    const current = await repo.findNextSweep(this.db, shopId);
    if (current !== null && current <= at) {
      // A link whose time has come is running, waiting for a worker, or dead: ask its job.
      if (current > now || (await this.linkAlive(shopId, current))) return;
      // Dead: what it was to do is overdue, so its replacement runs at once.
      await repo.moveNextSweep(this.db, shopId, current, null, now);
      at = now;
    }
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.claimNextSweep(trx, shopId, at, now))) return;
      const scheduled = await scheduleSweep(this.deps.jobs, trx, shopId, at);
      if (scheduled !== at) await repo.moveNextSweep(trx, shopId, at, scheduled, now);
    });
  }

  /**
   * Starts the shop's chain if it should run and does not (its last link failed for good,
   * or it ended while something became due). Safe at any time: process start, a settings
   * PUT, the end of a chain.
   */
  async resumeChain(shopId: string): Promise<void> {
    const earliest = await repo.findEarliestDue(this.db, shopId);
    if (earliest !== null) await this.ensureScheduled(shopId, earliest);
    else if (await repo.hasActiveHolds(this.db, shopId)) await this.ensureScheduled(shopId, this.deps.clock.now() + HOUR_MS);
  }

  /** resumeChain for every shop with lots the sweep will have to look at (process start). */
  async resumeChains(): Promise<number> {
    const shops = await repo.listShopsWithDueLots(this.db);
    for (const shopId of shops) await this.resumeChain(shopId);
    return shops.length;
  }

  /**
   * True when the job of the shop's link at `at` is queued or running. Enqueuing the
   * link's own key answers the job that holds it, and recreates it if it went missing.
   */
  private async linkAlive(shopId: string, at: number): Promise<boolean> {
    const { job, created } = await this.deps.jobs.enqueue(
      'loyalty.sweep',
      { shopId, at },
      { runAt: at, idempotencyKey: linkKey(shopId, at) },
    );
    return created || job.status === 'queued' || job.status === 'running';
  }

  /**
   * Reads due lots batch by batch (keyset on the index's order, so a lot that cannot be
   * swept is not read again) and applies `apply` to each, in one ledger write per member
   * of the batch.
   */
  private async eachDueBatch(
    read: (after: repo.DueKey | null) => Promise<repo.DueLot[]>,
    run: SweepRun,
    apply: (w: LedgerWrite, lotId: number) => Promise<void>,
    shopId: string,
  ): Promise<void> {
    let after: repo.DueKey | null = null;
    for (;;) {
      run.signal?.throwIfAborted();
      const lots = await read(after);
      const byMember = new Map<number, number[]>();
      for (const lot of lots) byMember.set(lot.profileId, [...(byMember.get(lot.profileId) ?? []), lot.id]);
      for (const [profileId, lotIds] of byMember) {
        await this.deps.ledger
          .write(shopId, profileId, async (w) => {
            for (const lotId of lotIds) await apply(w, lotId);
            // No transaction of its own to name: the write's answer is not used.
            return 0;
          })
          .catch((error: unknown) => {
            // The member was merged away since the read: its lots moved to the survivor
            // and are swept by the next run.
            if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
          });
      }
      const last = lots.at(-1);
      if (!last || lots.length < this.batchSize) return;
      after = { dueAt: last.dueAt, id: last.id };
    }
  }
}

/**
 * Enqueues the shop's link due at `at` and returns the instant it got. The key names the
 * shop and the instant, so enqueuing one link twice makes one job; a key already spent by
 * a finished link moves the instant on by a millisecond (as catalog.fetch's chain does).
 */
async function scheduleSweep(jobs: JobQueue, executor: Kysely<Database>, shopId: string, at: number): Promise<number> {
  for (let due = at; ; due += 1) {
    const { job, created } = await jobs.enqueue(
      'loyalty.sweep',
      { shopId, at: due },
      { runAt: due, idempotencyKey: linkKey(shopId, due), executor },
    );
    if (created || job.status === 'queued') return due;
  }
}

function linkKey(shopId: string, at: number): string {
  return `${shopId}:${at}`;
}
