import type { DbHandle } from '../../db/create-db.js';
import type { HoldPlacement, OrderHoldParticipant, OrderHoldScope, OrderPlaceScope } from '../order-holds/index.js';
import { normalizeCode } from './domain/codes.js';
import { inLockOrder, settleHeldRows, type HeldRows } from './held-rows.js';
import * as repo from './promo-codes.repo.js';

export type BlockRefusal = 'unknown' | 'expired' | 'exhausted' | 'member_required' | 'member_limit' | 'order_settled';
export type BlockOutcome =
  | { readonly ok: true; readonly code: string; readonly promotionId: number }
  | { readonly ok: false; readonly code: string; readonly reason: BlockRefusal };

/** What the promo-code holds read of an order: the codes its calculation applied. */
export interface OrderCodes {
  readonly holds: { readonly promoCodes: readonly { readonly code: string }[] };
}

/** The codes whose blocks an apply refused, and why: the next round of the apply sees them refused. */
export interface CodeRefusals {
  readonly refusedCodes: ReadonlyMap<string, BlockRefusal>;
}

const COUNTER_MOVES = {
  release: { blocked: -1, used: 0 },
  capture: { blocked: -1, used: 1 },
  'give back': { blocked: 0, used: -1 },
} as const;

/** An order's uses of codes (promo_code_uses): blocked, then used or released; a used one cancelled by a refund. */
const USES: HeldRows<'promo_code_uses'> = {
  table: 'promo_code_uses',
  steps: { release: ['blocked', 'released'], capture: ['blocked', 'used'], 'give back': ['used', 'cancelled'] },
  lockOrder: (a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  async count(trx, shopId, row, step, now) {
    await repo.moveCounters(trx, shopId, row.code, COUNTER_MOVES[step], now);
    // A block or use given back returns to the member's allowance; a counted use stays in it.
    if (step !== 'capture' && row.profile_id !== null) await repo.giveBackMemberSlot(trx, shopId, row.code, Number(row.profile_id));
  },
};

/**
 * Promo codes in the checkout's transactions (docs/promotions.md "The limits and how they
 * hold"): an apply blocks one use of each applied code for the order, a confirm counts the
 * blocks as uses, a cancel gives the blocks back and un-counts the uses.
 */
export class PromoCodeHolds implements OrderHoldParticipant<OrderCodes, CodeRefusals> {
  readonly name = 'promo codes';
  readonly locks = 'before member';

  constructor(private readonly deps: { readonly db: DbHandle }) {}

  /**
   * The order's blocks become exactly the calculation's codes for the buyer: a block of a
   * code left out, or of another buyer, is given back; the others are blocked. Any refusal
   * leaves writes in the transaction, which the caller rolls back.
   */
  async place(scope: OrderPlaceScope, order: OrderCodes): Promise<HoldPlacement<CodeRefusals>> {
    const wanted = new Set(order.holds.promoCodes.map((c) => c.code));
    // A fresh order was created in this transaction: it has blocked nothing yet.
    const old = new Map(
      scope.fresh ? [] : (await repo.blockedCodesOf(scope.trx, scope.shopId, scope.orderId)).map((b) => [b.code, b.profileId]),
    );
    const refusedCodes = new Map<string, BlockRefusal>();
    for (const code of inLockOrder(old.keys(), wanted)) {
      if (old.has(code) && (!wanted.has(code) || old.get(code) !== scope.profileId)) await this.releaseCode(scope, code);
      if (!wanted.has(code)) continue;
      const blocked = await this.block(scope, code);
      if (!blocked.ok) refusedCodes.set(code, blocked.reason);
    }
    return refusedCodes.size === 0 ? { ok: true } : { ok: false, note: { refusedCodes } };
  }

  /**
   * Blocks one use of a code for the order. Held by conditional writes only: the use row
   * (one per order and code, so a repeat apply of the order blocks nothing more), the
   * code's counter (`used + blocked < usage_limit`, not ended at now) and, for a code with
   * `per_member_limit`, the member's counter. A refusal may leave writes in the
   * transaction: the caller rolls it back.
   */
  async block(scope: OrderHoldScope, text: string): Promise<BlockOutcome> {
    const code = normalizeCode(text);
    if (code === null) return { ok: false, code: text, reason: 'unknown' };
    const { trx, shopId, orderId, profileId, now } = scope;
    const refused = (reason: BlockRefusal): BlockOutcome => ({ ok: false, code, reason });
    const claimed = await repo.claimUse(trx, {
      shop_id: shopId,
      order_id: orderId,
      code,
      profile_id: profileId,
      status: 'blocked',
      created_at: now,
      updated_at: now,
    });
    if (!claimed) {
      const existing = await repo.findUse(trx, shopId, orderId, code);
      if (existing?.status !== 'blocked') return refused('order_settled');
      const row = await repo.findCode(trx, shopId, code);
      return row ? { ok: true, code, promotionId: Number(row.promotion_id) } : refused('unknown');
    }
    const taken = await repo.takeBlock(trx, shopId, code, now);
    if (!taken) return refused(await this.whyRefused(trx, shopId, code, now));
    if (taken.per_member_limit !== null) {
      if (profileId === null) return refused('member_required');
      const slot = await repo.takeMemberSlot(trx, shopId, code, profileId, Number(taken.per_member_limit));
      if (!slot) return refused('member_limit');
    }
    return { ok: true, code, promotionId: Number(taken.promotion_id) };
  }

  /** Gives back the order's block of one code (it left the cart, or the buyer changed); answers how many it had (0 or 1). */
  async releaseCode(scope: OrderHoldScope, text: string): Promise<number> {
    const code = normalizeCode(text);
    return code === null ? 0 : settleHeldRows(USES, scope, 'release', code);
  }

  /** Confirm: the order's blocks become uses, once. Answers how many. */
  async capture(scope: OrderHoldScope): Promise<number> {
    return settleHeldRows(USES, scope, 'capture');
  }

  /** Cancel: the order's blocks are given back and, for a completed order, its uses counted no more, once. */
  async release(scope: OrderHoldScope): Promise<{ released: number; uncounted: number }> {
    const released = await settleHeldRows(USES, scope, 'release');
    const uncounted = await settleHeldRows(USES, scope, 'give back');
    return { released, uncounted };
  }

  async intact(shopId: string, orderId: string, order: OrderCodes): Promise<boolean> {
    const blocked = new Set((await repo.blockedCodesOf(this.deps.db.db, shopId, orderId)).map((b) => b.code));
    return order.holds.promoCodes.every((c) => blocked.has(c.code));
  }

  /** Why takeBlock refused: read after the refusal, for the message only. */
  private async whyRefused(trx: repo.Executor, shopId: string, code: string, now: number): Promise<BlockRefusal> {
    const row = await repo.findCode(trx, shopId, code);
    if (!row) return 'unknown';
    if (row.ends_at !== null && Number(row.ends_at) <= now) return 'expired';
    return 'exhausted';
  }
}
