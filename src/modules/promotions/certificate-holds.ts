import type { DbHandle } from '../../db/create-db.js';
import type { HoldPlacement, OrderHoldParticipant, OrderHoldScope, OrderPlaceScope } from '../order-holds/index.js';
import * as repo from './certificates.repo.js';
import { normalizeCode } from './domain/codes.js';
import { inLockOrder, settleHeldRows, type HeldRows } from './held-rows.js';

export type HoldRefusal = 'unknown' | 'expired' | 'insufficient' | 'order_settled';
export type HoldOutcome =
  | { readonly ok: true; readonly code: string; readonly certificateId: number; readonly amount: number }
  | { readonly ok: false; readonly code: string; readonly reason: HoldRefusal };

/** What the certificate holds read of an order: the amounts its calculation pays by each certificate. */
export interface OrderCertificates {
  readonly holds: { readonly certificates: readonly { readonly code: string; readonly amount: number }[] };
}

/** An order's holds of certificates (certificate_holds): held, then captured or released; a captured one refunded. */
const HOLDS: HeldRows<'certificate_holds'> = {
  table: 'certificate_holds',
  steps: { release: ['held', 'released'], capture: ['held', 'captured'], 'give back': ['captured', 'refunded'] },
  lockOrder: (a, b) => Number(a.certificate_id) - Number(b.certificate_id),
  async count(trx, shopId, row, step, now) {
    const amount = Number(row.amount);
    const change =
      step === 'release'
        ? { held: -amount, balance: 0 }
        : step === 'capture'
          ? { held: -amount, balance: -amount }
          : { held: 0, balance: amount };
    await repo.moveAmounts(trx, shopId, Number(row.certificate_id), change, now);
  },
};

/**
 * Gift certificates in the checkout's transactions (docs/promotions.md "The limits and how
 * they hold"): an apply holds the amount the order pays by each certificate, a confirm
 * spends it (the balance decreases), a cancel releases it or, for a completed order,
 * restores it to the certificate (expired or not).
 */
export class CertificateHolds implements OrderHoldParticipant<OrderCertificates> {
  readonly name = 'certificates';
  readonly locks = 'before member';

  constructor(private readonly deps: { readonly db: DbHandle }) {}

  /**
   * The order's holds become exactly the calculation's: a certificate left out is released,
   * the others are held anew. Any refusal leaves writes in the transaction, which the caller
   * rolls back.
   */
  async place(scope: OrderPlaceScope, order: OrderCertificates): Promise<HoldPlacement<never>> {
    const wanted = new Map(order.holds.certificates.map((h) => [h.code, h.amount]));
    // A fresh order was created in this transaction: it holds nothing yet.
    const old = scope.fresh ? new Map<string, number>() : await repo.heldOf(scope.trx, scope.shopId, scope.orderId);
    let ok = true;
    for (const code of inLockOrder(old.keys(), wanted.keys())) {
      const amount = wanted.get(code);
      if (amount === undefined) await this.releaseCode(scope, code);
      else if (!(await this.hold(scope, code, amount)).ok) ok = false;
    }
    return { ok };
  }

  /**
   * Holds `amount` of a certificate for the order, replacing the order's hold of it: the old
   * one is released and the new one taken by a conditional UPDATE (`balance - held >=
   * amount`, not expired at now). A refusal may leave writes in the transaction (the old
   * hold released): the caller rolls it back.
   */
  async hold(scope: OrderPlaceScope, text: string, amount: number): Promise<HoldOutcome> {
    const code = normalizeCode(text);
    if (code === null) return { ok: false, code: text, reason: 'unknown' };
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('A hold is a positive integer of minor units.');
    const { trx, shopId, orderId, now } = scope;
    if (!scope.fresh) await settleHeldRows(HOLDS, scope, 'release', code);
    const taken = await repo.takeHold(trx, shopId, code, amount, now);
    if (!taken) return { ok: false, code, reason: await this.whyRefused(trx, shopId, code, now) };
    const claimed = await repo.claimHold(trx, {
      shop_id: shopId,
      order_id: orderId,
      code,
      certificate_id: taken.id,
      amount,
      status: 'held',
      created_at: now,
      updated_at: now,
    });
    if (!claimed) return { ok: false, code, reason: 'order_settled' };
    return { ok: true, code, certificateId: taken.id, amount };
  }

  /** Releases the order's hold of one certificate; answers how many it had (0 or 1). */
  async releaseCode(scope: OrderHoldScope, text: string): Promise<number> {
    const code = normalizeCode(text);
    return code === null ? 0 : settleHeldRows(HOLDS, scope, 'release', code);
  }

  /** Confirm: the order's holds are spent (balances decrease), once. Answers how many. */
  async capture(scope: OrderHoldScope): Promise<number> {
    return settleHeldRows(HOLDS, scope, 'capture');
  }

  /** Cancel: held amounts are released, and captured ones (a completed order) restored, once. Answers how many moved. */
  async release(scope: OrderHoldScope): Promise<number> {
    return (await settleHeldRows(HOLDS, scope, 'release')) + (await settleHeldRows(HOLDS, scope, 'give back'));
  }

  async intact(shopId: string, orderId: string, order: OrderCertificates): Promise<boolean> {
    const held = await repo.heldOf(this.deps.db.db, shopId, orderId);
    return order.holds.certificates.every((c) => held.get(c.code) === c.amount);
  }

  /** Why takeHold refused: read after the refusal, for the message only. */
  private async whyRefused(trx: repo.Executor, shopId: string, code: string, now: number): Promise<HoldRefusal> {
    const row = await repo.findByCode(trx, shopId, code);
    if (!row) return 'unknown';
    if (row.expires_at !== null && Number(row.expires_at) <= now) return 'expired';
    return 'insufficient';
  }
}
