import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { MAX_AMOUNT_MINOR } from '../loyalty/domain/amount.js';
import { DAY_MS } from '../loyalty/domain/levels.js';
import type { LoyaltySettings } from '../loyalty/domain/settings.js';
import type { LoyaltyLedger } from '../loyalty/loyalty-ledger.js';
import type { LoyaltyLevelsService } from '../loyalty/loyalty-levels.service.js';
import type { LoyaltyService } from '../loyalty/loyalty.service.js';
import type { CertificatesService } from '../promotions/certificates.service.js';
import type { BlockRefusal, PromoCodesService } from '../promotions/promo-codes.service.js';
import { purchaseAmount } from './checkout-inputs.js';
import * as repo from './checkout.repo.js';
import type { StoredCalculation } from './checkout.types.js';
import type { CheckoutHolds } from './domain/result.js';

export interface CheckoutSettleDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly ledger: Pick<LoyaltyLedger, 'placeHold' | 'releaseHold' | 'captureHold' | 'write'>;
  readonly members: Pick<LoyaltyService, 'getSettings'>;
  readonly levels: Pick<LoyaltyLevelsService, 'recordPurchase' | 'cancelPurchase'>;
  readonly promoCodes: Pick<PromoCodesService, 'blockUse' | 'releaseUse' | 'confirmUses' | 'cancelUses'>;
  readonly certificates: Pick<CertificatesService, 'holdAmount' | 'releaseHolds' | 'captureHolds' | 'restoreHolds'>;
}

export type PlaceOutcome =
  | { readonly ok: true; readonly bonusHoldId: number | null }
  /** Something was refused (a race lost): nothing of the order is held any more. */
  | { readonly ok: false; readonly refusedCodes: ReadonlyMap<string, BlockRefusal> };

/** Thrown inside a ledger write that has nothing to do, so that it rolls back. */
class NothingToDo extends Error {}

/**
 * The holds of an order and what confirm and cancel do with them (docs/checkout.md
 * "Orders"). Every step is a conditional write of its own module (a use blocked → used,
 * a hold held → captured …), so each happens once however often it is run, and a
 * confirm or cancel that a crash cut short is finished by the next one.
 */
export class CheckoutSettle {
  constructor(private readonly deps: CheckoutSettleDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /**
   * Replaces the order's holds by `holds`: codes it no longer uses (or blocked for another
   * buyer) are released, the rest blocked; certificates held anew (a repeat replaces the
   * order's hold); the bonus hold released and placed again. If anything is refused,
   * everything of the order is released, so no hold is left behind.
   */
  async place(
    shopId: string,
    orderId: string,
    previousBonusHoldId: number | null,
    profileId: number | null,
    holds: CheckoutHolds,
  ): Promise<PlaceOutcome> {
    const wanted = new Set(holds.promoCodes.map((c) => c.code));
    for (const block of await repo.blockedCodesOf(this.db, shopId, orderId)) {
      if (!wanted.has(block.code) || block.profileId !== profileId) await this.deps.promoCodes.releaseUse(shopId, orderId, block.code);
    }
    const refusedCodes = new Map<string, BlockRefusal>();
    for (const { code } of holds.promoCodes) {
      const blocked = await this.deps.promoCodes.blockUse(shopId, { orderId, code, profileId });
      if (!blocked.ok) refusedCodes.set(code, blocked.reason);
    }
    let refused = refusedCodes.size > 0;
    const certificates = new Set(holds.certificates.map((c) => c.code));
    for (const code of (await repo.heldCertificatesOf(this.db, shopId, orderId)).keys()) {
      if (!certificates.has(code)) await this.deps.certificates.releaseHolds(shopId, orderId, code);
    }
    for (const hold of refused ? [] : holds.certificates) {
      const held = await this.deps.certificates.holdAmount(shopId, { orderId, code: hold.code, amount: hold.amount });
      if (!held.ok) refused = true;
    }
    // The ledger keeps one active hold per order: the old one goes before the new one is placed.
    if (previousBonusHoldId !== null) await this.deps.ledger.releaseHold(shopId, previousBonusHoldId);
    let bonusHoldId: number | null = null;
    if (!refused && holds.bonuses > 0 && profileId !== null) {
      try {
        bonusHoldId = (await this.deps.ledger.placeHold(shopId, profileId, orderId, holds.bonuses)).transactionId;
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
        refused = true;
      }
    }
    if (!refused) return { ok: true, bonusHoldId };
    await this.releaseAll(shopId, orderId, null);
    return { ok: false, refusedCodes };
  }

  /** Gives back every hold of a created order: code blocks, certificate holds, the bonus hold. */
  async releaseAll(shopId: string, orderId: string, bonusHoldId: number | null): Promise<void> {
    await this.deps.promoCodes.cancelUses(shopId, orderId);
    await this.deps.certificates.releaseHolds(shopId, orderId);
    if (bonusHoldId !== null) await this.deps.ledger.releaseHold(shopId, bonusHoldId);
  }

  /**
   * Confirm's steps for a completed order: the bonus hold captured, code uses counted,
   * certificate holds captured, the reward credited (once: its id is claimed on the order
   * in the same ledger write) and the purchase recorded for levels (which rewards a
   * referrer). Each is a no-op when already done.
   */
  async confirmSteps(shopId: string, row: repo.OrderRow, calculation: StoredCalculation): Promise<void> {
    const orderId = row.order_id;
    if (row.bonus_hold_id !== null) await this.deps.ledger.captureHold(shopId, Number(row.bonus_hold_id));
    await this.deps.promoCodes.confirmUses(shopId, orderId);
    await this.deps.certificates.captureHolds(shopId, orderId);
    if (row.profile_id === null) return;
    const profileId = Number(row.profile_id);
    const reward = calculation.result.bonusesReward;
    if (reward > 0 && row.reward_transaction_id === null) {
      const settings = await this.deps.members.getSettings(shopId);
      await this.quietly(
        this.deps.ledger.write(shopId, profileId, async (w) => {
          const id = await w.credit({ ...rewardTerms(settings, w.now), amount: reward, kind: 'order_reward', reason: `Order ${orderId}`, orderId });
          if (!(await repo.claimReward(w.trx, shopId, orderId, id))) throw new NothingToDo();
          return id;
        }),
      );
    }
    const amount = purchaseAmount(calculation.result);
    if (amount > 0 && amount <= MAX_AMOUNT_MINOR) {
      await this.deps.levels.recordPurchase(shopId, profileId, orderId, amount, Number(row.completed_at ?? row.updated_at));
    }
  }

  /**
   * Cancel's steps, for an order cancelled from created or from completed: held things are
   * released; spent bonuses are refunded to the lots they came from; certificates get
   * their amounts back; code uses are given back; the reward is cancelled (what the member
   * already spent of it stays spent); the purchase stops counting for levels.
   */
  async cancelSteps(shopId: string, row: repo.OrderRow): Promise<void> {
    const orderId = row.order_id;
    const holdId = row.bonus_hold_id === null ? null : Number(row.bonus_hold_id);
    await this.releaseAll(shopId, orderId, holdId);
    await this.deps.certificates.restoreHolds(shopId, orderId);
    if (row.profile_id === null) return;
    const profileId = Number(row.profile_id);
    if (holdId !== null) {
      await this.quietly(
        this.deps.ledger.write(shopId, profileId, async (w) => {
          const refunded = await w.refund(holdId, `Order ${orderId} cancelled`);
          if (!refunded.ok) throw new NothingToDo();
          return refunded.entryId;
        }),
      );
    }
    const reward = await repo.findOrder(this.db, shopId, orderId);
    if (reward?.reward_transaction_id != null) {
      const rewardId = Number(reward.reward_transaction_id);
      await this.quietly(
        this.deps.ledger.write(shopId, profileId, async (w) => {
          const cancelled = await w.cancelCredit(rewardId, `Order ${orderId} cancelled`);
          if (!cancelled.ok) throw new NothingToDo();
          return rewardId;
        }),
      );
    }
    await this.deps.levels.cancelPurchase(shopId, orderId);
  }

  /** A ledger write that found nothing to do, or a member that left the programme: nothing more to settle. */
  private async quietly(write: Promise<unknown>): Promise<void> {
    try {
      await write;
    } catch (error) {
      if (error instanceof NothingToDo) return;
      if (error instanceof AppError && error.code === 'NOT_FOUND') return;
      throw error;
    }
  }
}

/** The reward lot: pending for reward_pending_days when set; its lifetime runs from when it may be spent. */
function rewardTerms(settings: LoyaltySettings, now: number) {
  const pending = settings.rewardPendingDays > 0;
  const confirmsAt = pending ? now + settings.rewardPendingDays * DAY_MS : null;
  const expiresAt = settings.bonusLifetimeDays === null ? null : (confirmsAt ?? now) + settings.bonusLifetimeDays * DAY_MS;
  return { status: pending ? ('pending' as const) : ('confirmed' as const), confirmsAt, expiresAt };
}
