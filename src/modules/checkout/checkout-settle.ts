import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { isTransientConflict } from '../../db/dialect.js';
import { groupWriteOf } from '../../db/group-write.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { MAX_AMOUNT_MINOR } from '../loyalty/index.js';
import { DAY_MS } from '../loyalty/index.js';
import type { LoyaltySettings } from '../loyalty/index.js';
import type { LoyaltyLedger } from '../loyalty/index.js';
import type { LoyaltyLevelsService } from '../loyalty/index.js';
import type { LoyaltyService } from '../loyalty/index.js';
import type { OrderHoldScope } from '../order-holds/index.js';
import type { BlockRefusal } from '../promotions/index.js';
import { purchaseAmount } from './checkout-inputs.js';
import type { CheckoutHeldOrder, CheckoutHoldParticipant } from './checkout-holds.js';
import * as repo from './checkout.repo.js';
import { readStoredCalculation } from './stored-calculation.js';
import { COULD_NOT_APPLY, type StoredCalculation } from './checkout.types.js';

export interface CheckoutSettleDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly ledger: Pick<LoyaltyLedger, 'writeIn' | 'lotsDue'>;
  readonly members: Pick<LoyaltyService, 'getSettings'>;
  readonly levels: Pick<LoyaltyLevelsService, 'recordPurchaseIn' | 'cancelPurchaseIn' | 'purchaseSettled'>;
  /**
   * What an order holds (promo codes, certificates, bonuses, subscription benefits), in the
   * order in which they lock their rows: each `locks` no earlier than the one before it.
   */
  readonly holds: readonly CheckoutHoldParticipant[];
}

/** What an apply stores and holds: the calculation, and the order row's fields. */
export interface ApplyPlan {
  readonly shopId: string;
  readonly timezone: string;
  readonly orderId: string;
  /** The order exists (created): its row is replaced, else inserted. */
  readonly existing: boolean;
  readonly previousBonusHoldId: number | null;
  readonly profileId: number | null;
  readonly calculation: StoredCalculation;
  readonly row: Omit<
    repo.OrderRow,
    | 'shop_id'
    | 'order_id'
    | 'status'
    | 'bonus_hold_id'
    | 'reward_transaction_id'
    | 'steps_done'
    | 'created_at'
    | 'completed_at'
    | 'cancelled_at'
  >;
}

export type PlaceOutcome =
  | { readonly ok: true }
  /** Something was refused (a race lost): the transaction rolled back, the order is as it was. */
  | { readonly ok: false; readonly refusedCodes: ReadonlyMap<string, BlockRefusal> };

/** Thrown inside the apply's transaction to roll it back whole. */
class Refused extends Error {
  constructor(readonly refusedCodes: ReadonlyMap<string, BlockRefusal> = new Map()) {
    super('refused');
  }
}

const LOCK_PLACES = ['before member', 'member', 'after member'] as const;

/**
 * The holds of an order and what confirm and cancel do with them (docs/checkout.md
 * "Orders"). Apply, confirm and cancel each run as ONE transaction with one fsync: the
 * order row first (which locks it), then the hold participants in their order (promo
 * codes, certificates, the member's bonuses, subscription benefits), with the order's own
 * member steps (its reward, its purchase) where the member comes, so that two orders never
 * lock in opposite orders. Each hold is a conditional write of its own module, so the
 * limits hold across processes, and each step happens once. On SQLite the applies arriving
 * together share that transaction and its commit (group commit, each in a savepoint of its
 * own); on PostgreSQL each has its own.
 */
export class CheckoutSettle {
  /** The participants that lock before the member steps, and those after. */
  private readonly upToMember: readonly CheckoutHoldParticipant[];
  private readonly afterMember: readonly CheckoutHoldParticipant[];

  constructor(private readonly deps: CheckoutSettleDeps) {
    deps.holds.forEach((hold, i) => {
      const before = deps.holds[i - 1];
      if (before && LOCK_PLACES.indexOf(hold.locks) < LOCK_PLACES.indexOf(before.locks)) {
        throw new Error(`The hold participant ${hold.name} locks before ${before.name}: list it earlier.`);
      }
    });
    this.upToMember = deps.holds.filter((h) => h.locks !== 'after member');
    this.afterMember = deps.holds.filter((h) => h.locks === 'after member');
  }

  private get db() {
    return this.deps.db.db;
  }

  /**
   * Writes the order row and replaces the order's holds by the calculation's, in one
   * transaction. A refusal (another order took the last use of a code, a certificate's
   * balance or the member's bonuses between the read and the write) rolls it all back:
   * the order keeps what it held before. An order no longer created, or created by
   * another apply meanwhile: CONFLICT.
   */
  async apply(plan: ApplyPlan): Promise<PlaceOutcome> {
    const { shopId, orderId, profileId } = plan;
    const order: CheckoutHeldOrder = {
      holds: plan.calculation.holds,
      subscription: plan.row.subscription,
      bonusHoldId: plan.previousBonusHoldId,
    };
    try {
      // Applies share transactions (db/group-write.ts); a refusal rolls back its own apply alone.
      await groupWriteOf(this.deps.db).runContained(async (trx) => {
        const now = this.deps.clock.now();
        const stored = plan.existing
          ? await repo.replaceCreated(trx, shopId, orderId, { ...plan.row, bonus_hold_id: plan.previousBonusHoldId })
          : await repo.insertOrder(trx, {
              ...plan.row,
              shop_id: shopId,
              order_id: orderId,
              status: 'created',
              bonus_hold_id: null,
              reward_transaction_id: null,
              steps_done: 1,
              created_at: now,
              completed_at: null,
              cancelled_at: null,
            });
        if (!stored) throw new AppError('CONFLICT', COULD_NOT_APPLY);
        // Holds are written only in the transaction that writes their order's row: an order this one inserts holds nothing yet.
        const scope = { trx, shopId, timezone: plan.timezone, orderId, profileId, now, fresh: !plan.existing };
        let holdId = plan.previousBonusHoldId;
        for (const hold of this.deps.holds) {
          const placed = await hold.place(scope, order);
          if (!placed.ok) throw new Refused(placed.note?.refusedCodes);
          if (placed.note?.bonusHoldId !== undefined) holdId = placed.note.bonusHoldId;
        }
        if (holdId !== plan.previousBonusHoldId) await repo.setBonusHold(trx, shopId, orderId, holdId);
      });
      return { ok: true };
    } catch (error) {
      if (error instanceof Refused) return { ok: false, refusedCodes: error.refusedCodes };
      // Two transactions in each other's way (a deadlock on PostgreSQL, a busy database file
      // from another process on SQLite): rolled back, the next round tries again.
      if (isTransientConflict(error)) return { ok: false, refusedCodes: new Map() };
      throw error;
    }
  }

  /**
   * Confirm: created → completed and every step in one transaction — the holds captured
   * (the code uses counted, the certificate amounts and the bonus hold spent, the benefit
   * usage counted), the reward credited (its id claimed on the order), the purchase
   * recorded for levels. With `from` 'completed' it finishes an order whose steps did not
   * all run (each is a no-op when done). False when the order was not in `from`.
   */
  async confirm(shopId: string, orderId: string, from: 'created' | 'completed'): Promise<boolean> {
    const settings = await this.deps.members.getSettings(shopId);
    let dueAt: number | null = null;
    const row = await this.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      const order =
        from === 'created'
          ? await repo.moveStatus(trx, shopId, orderId, 'created', 'completed', now)
          : await repo.lockOrder(trx, shopId, orderId, 'completed');
      if (!order) return undefined;
      const calculation = readStoredCalculation(order.result);
      const scope = scopeOf(trx, order, now);
      const held = heldOrder(order, calculation.holds);
      for (const hold of this.upToMember) await hold.capture(scope, held);
      if (order.profile_id !== null) dueAt = await this.memberSteps(trx, order, calculation, settings, now);
      for (const hold of this.afterMember) await hold.capture(scope, held);
      return order;
    });
    if (!row) return false;
    await this.afterCommit(shopId, orderId, 'confirmed', dueAt);
    await repo.markStepsDone(this.db, shopId, orderId, 'completed', this.deps.clock.now());
    await this.deps.db.durable();
    return true;
  }

  /** The reward credited once (the row is locked: its reward id is current) and the purchase recorded. */
  private async memberSteps(
    trx: Transaction<Database>,
    order: repo.OrderRow,
    calculation: StoredCalculation,
    settings: LoyaltySettings,
    now: number,
  ): Promise<number | null> {
    const { shop_id: shopId, order_id: orderId } = order;
    const profileId = Number(order.profile_id);
    let dueAt: number | null = null;
    const reward = calculation.result.bonusesReward;
    if (reward > 0 && order.reward_transaction_id === null) {
      const written = await this.ifMember(
        this.deps.ledger.writeIn(trx, shopId, profileId, async (w) => {
          const id = await w.credit({
            ...rewardTerms(settings, w.now),
            amount: reward,
            kind: 'order_reward',
            reason: `Order ${orderId}`,
            orderId,
          });
          // Cannot fail while the row is locked in this transaction; if it ever does, all rolls back.
          if (!(await repo.claimReward(w.trx, shopId, orderId, id)))
            throw new AppError('CONFLICT', 'The order changed while it was confirmed; try again.');
          return id;
        }),
      );
      dueAt = written?.dueAt ?? null;
    }
    const amount = purchaseAmount(calculation.result);
    if (amount > 0 && amount <= MAX_AMOUNT_MINOR) {
      await this.deps.levels.recordPurchaseIn(trx, shopId, profileId, orderId, amount, Number(order.completed_at ?? now));
    }
    return dueAt;
  }

  /**
   * Cancel: `from` → cancelled and every step in one transaction. Whatever is still held
   * is released and whatever was captured given back — code uses, certificate amounts,
   * the bonus hold (refunded to exactly the lots it drew from), benefit usage —, the
   * reward cancelled (what the member already spent of it stays spent), the purchase
   * cancelled for levels. Each step acts on the state it finds, so a confirm cut short
   * anywhere is undone exactly. With `from` 'cancelled' it finishes a cancel whose steps
   * did not all run. False when the order was not in `from`.
   */
  async cancel(shopId: string, orderId: string, from: 'created' | 'completed' | 'cancelled'): Promise<boolean> {
    const row = await this.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      const order =
        from === 'cancelled'
          ? await repo.lockOrder(trx, shopId, orderId, 'cancelled')
          : await repo.moveStatus(trx, shopId, orderId, from, 'cancelled', now);
      if (!order) return undefined;
      const scope = scopeOf(trx, order, now);
      const held = heldOrder(order, readStoredCalculation(order.result).holds);
      for (const hold of this.upToMember) await hold.release(scope, held);
      const rewardId = order.reward_transaction_id === null ? null : Number(order.reward_transaction_id);
      if (rewardId !== null && order.profile_id !== null) {
        await this.ifMember(
          this.deps.ledger.writeIn(trx, shopId, Number(order.profile_id), async (w) =>
            (await w.cancelCredit(rewardId, `Order ${orderId} cancelled`)).ok ? rewardId : 0,
          ),
        );
      }
      await this.deps.levels.cancelPurchaseIn(trx, shopId, orderId);
      for (const hold of this.afterMember) await hold.release(scope, held);
      return order;
    });
    if (!row) return false;
    await this.afterCommit(shopId, orderId, 'cancelled', null);
    await repo.markStepsDone(this.db, shopId, orderId, 'cancelled', this.deps.clock.now());
    await this.deps.db.durable();
    return true;
  }

  /**
   * Whether the order still holds what its stored calculation held, read from the modules
   * that own the holds: a confirm must not credit a reward for what was never spent (an
   * order stored before apply became one transaction may have lost its holds to a repeat
   * apply that lost its race).
   */
  async holdsIntact(shopId: string, row: repo.OrderRow): Promise<boolean> {
    const held = heldOrder(row, readStoredCalculation(row.result).holds);
    for (const hold of this.deps.holds) if (hold.intact && !(await hold.intact(shopId, row.order_id, held))) return false;
    return true;
  }

  /** After the commit: the upkeep hears of a reward lot that will expire, the referral programme of the purchase. */
  private async afterCommit(shopId: string, orderId: string, purchase: 'confirmed' | 'cancelled', dueAt: number | null): Promise<void> {
    await this.deps.ledger.lotsDue(shopId, dueAt);
    await this.deps.levels.purchaseSettled(shopId, orderId, purchase);
  }

  /** A ledger write of a member who left the programme has nothing to settle (lockMember changed no row: nothing to roll back). */
  private async ifMember<T>(write: Promise<T>): Promise<T | undefined> {
    try {
      return await write;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    }
  }
}

function scopeOf(trx: Transaction<Database>, order: repo.OrderRow, now: number): OrderHoldScope {
  return {
    trx,
    shopId: order.shop_id,
    orderId: order.order_id,
    profileId: order.profile_id === null ? null : Number(order.profile_id),
    now,
  };
}

function heldOrder(order: repo.OrderRow, holds: StoredCalculation['holds']): CheckoutHeldOrder {
  return { holds, subscription: order.subscription, bonusHoldId: order.bonus_hold_id === null ? null : Number(order.bonus_hold_id) };
}

/** The reward lot: pending for reward_pending_days when set; its lifetime runs from when it may be spent. */
function rewardTerms(settings: LoyaltySettings, now: number) {
  const pending = settings.rewardPendingDays > 0;
  const confirmsAt = pending ? now + settings.rewardPendingDays * DAY_MS : null;
  const expiresAt = settings.bonusLifetimeDays === null ? null : (confirmsAt ?? now) + settings.bonusLifetimeDays * DAY_MS;
  return { status: pending ? ('pending' as const) : ('confirmed' as const), confirmsAt, expiresAt };
}
