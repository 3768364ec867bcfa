import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import type { TrackingSubscriber } from '../tracking/index.js';
import { TtlCache } from '../../ttl-cache.js';
import { MAX_AMOUNT_MINOR } from './domain/amount.js';
import { checkLadder, DAY_MS, memberLevel, type Ladder, type MemberLevel } from './domain/levels.js';
import { purchaseFromEvent } from './domain/purchase-event.js';
import * as repo from './loyalty-levels.repo.js';
import type { LoyaltyService, MemberView } from './loyalty.service.js';

/** The member's level as the checkout, the admin view and the SDK read it. */
export interface CurrentLevel {
  readonly code: string;
  readonly name: string;
  /** Hundredths of a percent. */
  readonly rewardPercent: number;
  /** When the level drops with no more purchases; null: never. */
  readonly expiresAt: number | null;
}

/** Told of a member's purchase once it is recorded or cancelled (the referral programme). */
export interface PurchaseListener {
  purchaseConfirmed(shopId: string, profileId: number, orderId: string, amount: number): Promise<void>;
  purchaseCancelled(shopId: string, profileId: number, orderId: string): Promise<void>;
}

export interface LoyaltyLevelsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'currentProfileId'>;
  /** The programme's settings and members (the ledger service). */
  readonly members: Pick<LoyaltyService, 'getSettings' | 'viewMember'>;
  readonly purchases?: PurchaseListener;
}

export const PURCHASES_SUBSCRIBER = 'loyalty.purchases';
export const DEFAULT_WINDOW_DAYS = 365;
export const ORDER_ID_MAX_LENGTH = 255;
/** Members recomputed in one transaction by the daily job. */
const RECOMPUTE_BATCH = 200;
/**
 * How long levelOf (read by every checkout of a member) uses a ladder it read before: a
 * PUT through this process is seen at once; one through another process makes every
 * member due in the same commit, and a due member's level is recomputed from the ladder
 * read in its own transaction, so a stale ladder is never used to answer one.
 */
export const LADDER_CACHE_TTL_MS = 1_000;
const LADDER_CACHE_MAX_SHOPS = 10_000;

/**
 * Loyalty levels (docs/loyalty.md "Levels"): the ladder of a shop, the purchases that
 * count toward it, and each member's level, recomputed when a purchase is recorded or
 * cancelled, read lazily when its expiry has passed, and kept fresh by a daily job.
 */
export class LoyaltyLevelsService {
  private readonly ladders: TtlCache<string, readonly repo.LevelRow[]>;

  constructor(private readonly deps: LoyaltyLevelsDeps) {
    this.ladders = new TtlCache({ max: LADDER_CACHE_MAX_SHOPS, ttlMs: LADDER_CACHE_TTL_MS, clock: deps.clock });
  }

  /**
   * Listed after the ledger's participant (src/services.ts), so the surviving profile is a
   * member by now; its level is recomputed when next read.
   */
  mergeParticipant(): MergeParticipant {
    return {
      name: 'loyalty levels',
      merge: async (trx, shopId, fromId, intoId) => {
        await repo.movePurchases(trx, shopId, fromId, intoId);
        await repo.markMemberDue(trx, shopId, intoId, this.deps.clock.now());
      },
    };
  }

  /** Drops the cached admin settings: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.ladders.clear();
  }

  private get db() {
    return this.deps.db.db;
  }

  /** The ladder; before the first PUT, no levels over the default window. */
  async getLadder(shopId: string): Promise<Ladder> {
    await this.deps.shops.requireShop(shopId);
    return this.readLadder(this.db, shopId);
  }

  /**
   * Replaces the ladder whole. Every member's level becomes due at once (one UPDATE), so
   * a read recomputes it against the new ladder, and the shop's daily chain restarts with
   * a link due now, which recomputes them all in batches.
   */
  async putLadder(shopId: string, ladder: Ladder): Promise<Ladder> {
    await this.deps.shops.requireShop(shopId);
    const check = checkLadder(ladder);
    if (!check.ok) throw new AppError('VALIDATION_FAILED', `Field \`${check.field}\` ${check.requirement}.`, { field: check.field });
    const now = this.deps.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const due = await this.scheduleLink(trx, shopId, now);
      const levels = ladder.levels.map((l) => ({ code: l.code, name: l.name, min_total: l.minTotal, reward_percent: l.rewardPercent }));
      await repo.replaceLadder(trx, shopId, ladder.windowDays, levels, due, now);
      await repo.markAllMembersDue(trx, shopId, now);
    });
    this.ladders.delete(shopId);
    await this.deps.db.durable();
    return this.readLadder(this.db, shopId);
  }

  /**
   * A confirmed order of a member counts toward its level (the checkout's confirm, or a
   * tracked purchase). An order counts once however often it is reported: the first
   * report is kept, a cancelled order stays cancelled. A profile that is not a member
   * records nothing (false). Then the referral programme hears of it.
   */
  async recordPurchase(shopId: string, profileId: number, orderId: string, amountMinor: number, at: number): Promise<boolean> {
    if (orderId === '' || orderId.length > ORDER_ID_MAX_LENGTH) {
      throw new AppError('VALIDATION_FAILED', `Field \`order_id\` must be 1 to ${ORDER_ID_MAX_LENGTH} characters.`, { field: 'order_id' });
    }
    if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0 || amountMinor > MAX_AMOUNT_MINOR) {
      throw new AppError('VALIDATION_FAILED', 'Field `amount` must be greater than 0.', { field: 'amount' });
    }
    const member = await this.db.transaction().execute((trx) => this.recordPurchaseIn(trx, shopId, profileId, orderId, amountMinor, at));
    if (!member) return false;
    await this.deps.db.durable();
    // Also on a report of an order already recorded: a step that failed after the purchase committed runs again.
    await this.purchaseSettled(shopId, orderId, 'confirmed');
    return true;
  }

  /**
   * recordPurchase inside the caller's transaction (the checkout's confirm, so that the
   * order's status and its purchase move together): the member is locked in `trx`. The
   * caller commits, then calls `purchaseSettled`. False: the profile is not a member.
   */
  async recordPurchaseIn(
    trx: Transaction<Database>,
    shopId: string,
    profileId: number,
    orderId: string,
    amountMinor: number,
    at: number,
  ): Promise<boolean> {
    const now = this.deps.clock.now();
    if (!(await repo.lockMember(trx, shopId, profileId, now))) return false;
    const row = {
      shop_id: shopId,
      order_id: orderId,
      profile_id: profileId,
      amount: amountMinor,
      status: 'confirmed' as const,
      purchased_at: at,
      updated_at: now,
    };
    if (await repo.insertPurchase(trx, row)) await this.recomputeLocked(trx, shopId, profileId, now);
    return true;
  }

  /**
   * cancelPurchase inside the caller's transaction (the checkout's cancel). The caller
   * commits, then calls `purchaseSettled`. False when the order was not recorded or was
   * cancelled already.
   */
  async cancelPurchaseIn(trx: Transaction<Database>, shopId: string, orderId: string): Promise<boolean> {
    const now = this.deps.clock.now();
    const found = await repo.findPurchase(trx, shopId, orderId);
    if (!found || found.status !== 'confirmed') return false;
    const profileId = Number(found.profile_id);
    const member = await repo.lockMember(trx, shopId, profileId, now);
    const cancelled = await repo.cancelPurchase(trx, shopId, orderId, profileId, now);
    if (cancelled && member) await this.recomputeLocked(trx, shopId, profileId, now);
    return cancelled !== undefined;
  }

  /**
   * After a committed record (`confirmed`) or cancel (`cancelled`) of an order's purchase:
   * the referral programme hears of it while the purchase is still in that status.
   */
  async purchaseSettled(shopId: string, orderId: string, status: 'confirmed' | 'cancelled'): Promise<void> {
    const purchase = await repo.findPurchase(this.db, shopId, orderId);
    if (purchase?.status !== status || !this.deps.purchases) return;
    if (status === 'confirmed')
      await this.deps.purchases.purchaseConfirmed(shopId, Number(purchase.profile_id), orderId, Number(purchase.amount));
    else await this.deps.purchases.purchaseCancelled(shopId, Number(purchase.profile_id), orderId);
  }

  /**
   * A recorded order is cancelled (the checkout's cancel): it stops counting, the member's
   * level is recomputed, and a referral reward it earned is taken back. False when the
   * order was not recorded or was cancelled already.
   */
  async cancelPurchase(shopId: string, orderId: string): Promise<boolean> {
    const now = this.deps.clock.now();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const found = await repo.findPurchase(this.db, shopId, orderId);
      if (!found || found.status !== 'confirmed') return false;
      const profileId = Number(found.profile_id);
      // The member first, as every write of the member locks it first; then the purchase, if still this member's.
      const outcome = await this.db.transaction().execute(async (trx) => {
        const member = await repo.lockMember(trx, shopId, profileId, now);
        const cancelled = await repo.cancelPurchase(trx, shopId, orderId, profileId, now);
        if (cancelled && member) await this.recomputeLocked(trx, shopId, profileId, now);
        return cancelled !== undefined;
      });
      if (!outcome) continue;
      await this.deps.db.durable();
      await this.deps.purchases?.purchaseCancelled(shopId, profileId, orderId);
      return true;
    }
    return false;
  }

  /**
   * The member's current level, null without one. A stored level whose expiry has passed
   * (or that a new ladder made due) is recomputed first, and so is a member with no level
   * stored when the lowest level needs no purchase (min_total 0: it joined after the
   * ladder was PUT), so the answer is exact even before the daily job has come by.
   * `known` is the level the member's row stored, when the caller has just read the row
   * (LoyaltyService.findMemberWithLevelOf): it is not read again.
   */
  async levelOf(shopId: string, profileId: number, known?: repo.StoredLevel): Promise<CurrentLevel | null> {
    const stored = known ?? (await repo.findStoredLevel(this.db, shopId, profileId));
    if (!stored) return null;
    const now = this.deps.clock.now();
    const { expiresAt } = stored;
    const levels = expiresAt !== null && expiresAt <= now ? undefined : await this.levelsOf(shopId);
    // Due; or no level stored while the lowest level needs no purchase (a member who joined since the ladder was PUT).
    if (levels === undefined || (stored.code === null && Number(levels[0]?.min_total) === 0)) {
      const computed = await this.db
        .transaction()
        .execute(async (trx) =>
          (await repo.lockMember(trx, shopId, profileId, now)) ? this.recomputeLocked(trx, shopId, profileId, now) : undefined,
        );
      return computed?.level ? toCurrent(computed) : null;
    }
    const level = levels.find((l) => l.code === stored.code);
    return level ? { code: level.code, name: level.name, rewardPercent: level.reward_percent, expiresAt } : null;
  }

  private levelsOf(shopId: string): Promise<readonly repo.LevelRow[]> {
    return this.ladders.getOrLoad(shopId, () => repo.listLevels(this.db, shopId));
  }

  /** The checkout's reward percent (hundredths) for the member: its level's, else the programme's. */
  async rewardPercentOf(shopId: string, profileId: number): Promise<number> {
    const level = await this.levelOf(shopId, profileId);
    return level?.rewardPercent ?? (await this.deps.members.getSettings(shopId)).rewardPercent;
  }

  /** GET …/loyalty/members/{identifier}: the ledger's view of the member, with its level. */
  async viewMember(shopId: string, identifier: string): Promise<MemberView & { level: CurrentLevel | null }> {
    const view = await this.deps.members.viewMember(shopId, identifier);
    return { ...view, level: await this.levelOf(shopId, view.profileId) };
  }

  /**
   * The `loyalty.levels` job: one link of the shop's daily chain. If it is still the
   * ladder's due link, it recomputes every member whose level is due (expired, or marked
   * by a new ladder), in batches, then schedules the next link a day on and moves the
   * chain to it in one transaction; a superseded link (a redelivery, or a newer PUT)
   * does nothing. With no levels left the chain stops; the next PUT starts it again.
   */
  async runLevelsJob(payload: JobMap['loyalty.levels']): Promise<void> {
    const ladder = await repo.findLadder(this.db, payload.shopId);
    if (!ladder || ladder.next_run_at === null || Number(ladder.next_run_at) !== payload.at) return;
    const now = this.deps.clock.now();
    await this.recomputeDue(payload.shopId, now);
    const levels = await repo.listLevels(this.db, payload.shopId);
    await this.db
      .transaction()
      .execute(async (trx) => {
        const next = levels.length === 0 ? null : await this.scheduleLink(trx, payload.shopId, Math.max(now, payload.at) + DAY_MS);
        if (!(await repo.moveNextRun(trx, payload.shopId, payload.at, next, now))) throw new LinkTaken();
      })
      .catch((error: unknown) => {
        if (!(error instanceof LinkTaken)) throw error;
      });
    await this.deps.db.durable();
  }

  /** Records the `purchase` events of members (docs/loyalty.md "Levels"); idempotent, as an order counts once. */
  trackingSubscriber(): TrackingSubscriber {
    return {
      name: PURCHASES_SUBSCRIBER,
      accepts: (event) => purchaseFromEvent(event) !== undefined,
      handle: async (event) => {
        const purchase = purchaseFromEvent(event);
        if (!purchase) return;
        const profileId = (await this.deps.identity.currentProfileId(event.shopId, event.profileId)) ?? event.profileId;
        await this.recordPurchase(event.shopId, profileId, purchase.orderId, purchase.amount, purchase.at);
      },
    };
  }

  private async recomputeDue(shopId: string, now: number): Promise<void> {
    for (;;) {
      const due = await repo.listDueMembers(this.db, shopId, now, RECOMPUTE_BATCH);
      if (due.length === 0) return;
      // One order of locking for every batch, so two deliveries of a link cannot deadlock.
      due.sort((a, b) => a - b);
      await this.db.transaction().execute(async (trx) => {
        for (const profileId of due) {
          if (await repo.lockMember(trx, shopId, profileId, now)) await this.recomputeLocked(trx, shopId, profileId, now);
        }
      });
      await this.deps.db.durable();
    }
  }

  /** Computes the member's level from the ladder and its purchases and stores it; the caller holds the member lock. */
  private async recomputeLocked(trx: Transaction<Database>, shopId: string, profileId: number, now: number): Promise<MemberLevel> {
    const ladder = await this.readLadder(trx, shopId);
    const purchases = await repo.listPurchasesSince(trx, shopId, profileId, now - ladder.windowDays * DAY_MS);
    const computed = memberLevel(ladder, purchases, now);
    await repo.setMemberLevel(trx, shopId, profileId, computed.level?.code ?? null, computed.expiresAt);
    return computed;
  }

  private async readLadder(db: repo.Executor, shopId: string): Promise<Ladder> {
    const row = await repo.findLadder(db, shopId);
    const levels = await repo.listLevels(db, shopId);
    return {
      windowDays: row?.window_days ?? DEFAULT_WINDOW_DAYS,
      levels: levels.map((l) => ({ code: l.code, name: l.name, minTotal: Number(l.min_total), rewardPercent: l.reward_percent })),
    };
  }

  /**
   * Enqueues the link of the shop's chain due at `at` and returns the instant it got. The
   * key names the shop and the instant, so one link enqueued twice is one job; a key
   * already spent by a finished link moves the instant on by a millisecond.
   */
  private async scheduleLink(trx: Transaction<Database>, shopId: string, at: number): Promise<number> {
    for (let due = at; ; due += 1) {
      const { job, created } = await this.deps.jobs.enqueue(
        'loyalty.levels',
        { shopId, at: due },
        { runAt: due, idempotencyKey: `${shopId}:${due}`, executor: trx },
      );
      if (created || job.status === 'queued') return due;
    }
  }
}

function toCurrent(computed: MemberLevel): CurrentLevel | null {
  const { level, expiresAt } = computed;
  return level ? { code: level.code, name: level.name, rewardPercent: level.rewardPercent, expiresAt } : null;
}

class LinkTaken extends Error {}
