import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { Transaction } from 'kysely';
import type { CertificateHoldStatus, Database } from '../../db/types.js';
import type { ShopsService } from '../shops/shops.service.js';
import { normalizeCode } from './domain/codes.js';
import * as repo from './certificates.repo.js';
import { nextId } from './promotions.repo.js';

export interface CertificatesDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
}

export interface Certificate {
  readonly id: number;
  readonly code: string;
  readonly poolId: number | null;
  /** Minor units: the face value. */
  readonly amount: number;
  /** Minor units not spent yet (held amounts included). */
  readonly balance: number;
  /** Minor units held by orders not yet confirmed. */
  readonly held: number;
  readonly expiresAt: number | null;
  readonly createdAt: number;
}

export type HoldRefusal = 'unknown' | 'expired' | 'insufficient' | 'order_settled';
export type HoldOutcome =
  | { readonly ok: true; readonly code: string; readonly certificateId: number; readonly amount: number }
  | { readonly ok: false; readonly code: string; readonly reason: HoldRefusal };

export const CERTIFICATE_NOT_FOUND = 'Certificate not found.';

class Refused extends Error {
  constructor(readonly reason: HoldRefusal) {
    super(reason);
  }
}

/** Gift certificates and their pools, and the holds the checkout places on them (docs/promotions.md). */
export class CertificatesService {
  constructor(private readonly deps: CertificatesDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async createPool(shopId: string, name: string): Promise<{ id: number; name: string }> {
    await this.deps.shops.requireShop(shopId);
    const now = this.deps.clock.now();
    const id = await this.db.transaction().execute(async (trx) => {
      const next = await nextId(trx, shopId, 'pool');
      await repo.insertPool(trx, shopId, next, name, now);
      return next;
    });
    await this.deps.db.durable();
    return { id, name };
  }

  /** A certificate worth `amount` minor units; its pool, when named, must exist; a taken code: CONFLICT. */
  async createCertificate(
    shopId: string,
    input: { code: string; amount: number; poolId?: number | undefined; expiresAt?: number | undefined },
  ): Promise<Certificate> {
    await this.deps.shops.requireShop(shopId);
    const code = normalizeCode(input.code);
    if (code === null) throw new AppError('VALIDATION_FAILED', 'Field `code` must be 1 to 64 letters, digits, `-` or `_`.', { field: 'code' });
    const now = this.deps.clock.now();
    if (input.expiresAt !== undefined && input.expiresAt <= now) {
      throw new AppError('VALIDATION_FAILED', 'Field `expires_at` must be in the future.', { field: 'expires_at' });
    }
    if (input.poolId !== undefined && !(await repo.findPool(this.db, shopId, input.poolId))) {
      throw new AppError('VALIDATION_FAILED', 'Field `pool_id` must name a certificate pool of the shop.', { field: 'pool_id' });
    }
    const created = await this.db.transaction().execute(async (trx) => {
      const row: repo.CertificateRow = {
        shop_id: shopId,
        id: await nextId(trx, shopId, 'certificate'),
        code,
        pool_id: input.poolId ?? null,
        amount: input.amount,
        balance: input.amount,
        held: 0,
        expires_at: input.expiresAt ?? null,
        created_at: now,
        updated_at: now,
      };
      return (await repo.insertCertificate(trx, row)) ? row : undefined;
    });
    if (!created) throw new AppError('CONFLICT', `Certificate \`${code}\` already exists.`);
    await this.deps.db.durable();
    return toCertificate(created);
  }

  async getCertificate(shopId: string, text: string): Promise<Certificate> {
    await this.deps.shops.requireShop(shopId);
    const code = normalizeCode(text);
    const row = code === null ? undefined : await repo.findByCode(this.db, shopId, code);
    if (!row) throw new AppError('NOT_FOUND', CERTIFICATE_NOT_FOUND);
    return toCertificate(row);
  }

  /** The checkout's loader: the certificates among `texts` that exist, by their stored code. */
  async findCertificates(shopId: string, texts: readonly string[]): Promise<Map<string, Certificate>> {
    const codes = [...new Set(texts.map(normalizeCode).filter((c): c is string => c !== null))];
    const rows = await repo.findByCodes(this.db, shopId, codes);
    return new Map(rows.map((r) => [r.code, toCertificate(r)]));
  }

  /**
   * Holds `amount` of a certificate for an order (apply). A repeat for the same order and
   * code replaces the order's hold: the old one is released and the new one taken in one
   * transaction, by a conditional UPDATE (`balance - held >= amount`, not expired at the
   * clock's now). A refusal changes nothing, the old hold included.
   */
  async holdAmount(shopId: string, input: { orderId: string; code: string; amount: number }): Promise<HoldOutcome> {
    const code = normalizeCode(input.code);
    if (code === null) return { ok: false, code: input.code, reason: 'unknown' };
    try {
      const outcome = await this.db.transaction().execute(async (trx) => {
        const held = await this.holdAmountIn(trx, shopId, { ...input, code });
        // A refusal may follow the release of the old hold: it rolls back.
        if (!held.ok) throw new Refused(held.reason);
        return held;
      });
      await this.deps.db.durable();
      return outcome;
    } catch (error) {
      if (error instanceof Refused) return { ok: false, code, reason: error.reason };
      throw error;
    }
  }

  /**
   * holdAmount inside the caller's transaction (the checkout's apply, which places all
   * its holds in one). A refusal may leave writes in `trx`: the caller must roll it back.
   */
  async holdAmountIn(
    trx: Transaction<Database>,
    shopId: string,
    input: { orderId: string; code: string; amount: number },
    options: { readonly fresh?: boolean } = {},
  ): Promise<HoldOutcome> {
    const code = normalizeCode(input.code);
    if (code === null) return { ok: false, code: input.code, reason: 'unknown' };
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new RangeError('A hold is a positive integer of minor units.');
    const now = this.deps.clock.now();
    if (!options.fresh) await this.settleIn(trx, shopId, input.orderId, 'held', 'released', code);
    const taken = await repo.takeHold(trx, shopId, code, input.amount, now);
    if (!taken) return { ok: false, code, reason: await this.whyRefused(trx, shopId, code, now) };
    const hold = { shop_id: shopId, order_id: input.orderId, code, certificate_id: taken.id, amount: input.amount };
    const claimed = await repo.claimHold(trx, { ...hold, status: 'held', created_at: now, updated_at: now });
    if (!claimed) return { ok: false, code, reason: 'order_settled' };
    return { ok: true, code, certificateId: taken.id, amount: input.amount };
  }

  /**
   * The checkout's apply, inside its transaction: the order's holds become exactly
   * `holds` (a code left out is released, the others held anew). Certificates are visited
   * in one order (by code), so that two applies never lock two in opposite orders.
   * Answers the refusals; any refusal leaves writes in `trx`, which the caller must roll back.
   * `fresh`: the order was created in `trx`, so it holds nothing yet and nothing is read or released.
   */
  async replaceHoldsIn(
    trx: Transaction<Database>,
    shopId: string,
    orderId: string,
    holds: readonly { code: string; amount: number }[],
    options: { readonly fresh?: boolean } = {},
  ): Promise<HoldOutcome[]> {
    const wanted = new Map(holds.map((h) => [h.code, h.amount]));
    const old = options.fresh ? new Map<string, number>() : await repo.heldOf(trx, shopId, orderId);
    const refusals: HoldOutcome[] = [];
    for (const code of [...new Set([...old.keys(), ...wanted.keys()])].sort()) {
      const amount = wanted.get(code);
      if (amount === undefined) {
        await this.settleIn(trx, shopId, orderId, 'held', 'released', code);
        continue;
      }
      const held = await this.holdAmountIn(trx, shopId, { orderId, code, amount }, options);
      if (!held.ok) refusals.push(held);
    }
    return refusals;
  }

  /** What an order holds of each certificate, by code. */
  async heldOf(shopId: string, orderId: string): Promise<Map<string, number>> {
    return repo.heldOf(this.db, shopId, orderId);
  }

  /** Releases the order's holds (all, or the one of `code`); answers how many were held. */
  async releaseHolds(shopId: string, orderId: string, code?: string): Promise<number> {
    const normalized = code === undefined ? undefined : normalizeCode(code);
    if (normalized === null) return 0;
    return this.settle(shopId, orderId, 'held', 'released', normalized);
  }

  /** Confirm: the order's holds are spent (balance decreases), once. */
  async captureHolds(shopId: string, orderId: string): Promise<number> {
    return this.settle(shopId, orderId, 'held', 'captured');
  }

  /** Refund of a completed order: what it spent returns to the certificates, once, expired or not. */
  async restoreHolds(shopId: string, orderId: string): Promise<number> {
    return this.settle(shopId, orderId, 'captured', 'refunded');
  }

  /** Cancel, inside the caller's transaction: held amounts released, and captured ones (a completed order) restored. */
  async cancelHoldsIn(trx: Transaction<Database>, shopId: string, orderId: string): Promise<number> {
    return (await this.settleIn(trx, shopId, orderId, 'held', 'released')) + (await this.settleIn(trx, shopId, orderId, 'captured', 'refunded'));
  }

  /** captureHolds inside the caller's transaction (the checkout's confirm). */
  async captureHoldsIn(trx: Transaction<Database>, shopId: string, orderId: string): Promise<number> {
    return this.settleIn(trx, shopId, orderId, 'held', 'captured');
  }

  private async settle(shopId: string, orderId: string, from: CertificateHoldStatus, to: CertificateHoldStatus, code?: string): Promise<number> {
    const moved = await this.db.transaction().execute((trx) => this.settleIn(trx, shopId, orderId, from, to, code));
    if (moved > 0) await this.deps.db.durable();
    return moved;
  }

  private async settleIn(
    trx: Transaction<Database>,
    shopId: string,
    orderId: string,
    from: CertificateHoldStatus,
    to: CertificateHoldStatus,
    code?: string,
  ): Promise<number> {
    const now = this.deps.clock.now();
    const rows = await repo.settleHolds(trx, shopId, orderId, from, to, now, code);
    // One lock order for multi-certificate settles, so two never deadlock.
    rows.sort((a, b) => Number(a.certificate_id) - Number(b.certificate_id));
    for (const row of rows) {
      const amount = Number(row.amount);
      const change =
        to === 'released' ? { held: -amount, balance: 0 } : to === 'captured' ? { held: -amount, balance: -amount } : { held: 0, balance: amount };
      await repo.moveAmounts(trx, shopId, Number(row.certificate_id), change, now);
    }
    return rows.length;
  }

  /** Why takeHold refused: read after the refusal, for the message only. */
  private async whyRefused(trx: repo.Executor, shopId: string, code: string, now: number): Promise<HoldRefusal> {
    const row = await repo.findByCode(trx, shopId, code);
    if (!row) return 'unknown';
    if (row.expires_at !== null && Number(row.expires_at) <= now) return 'expired';
    return 'insufficient';
  }
}

function toCertificate(row: repo.CertificateRow): Certificate {
  return {
    id: Number(row.id),
    code: row.code,
    poolId: row.pool_id === null ? null : Number(row.pool_id),
    amount: Number(row.amount),
    balance: Number(row.balance),
    held: Number(row.held),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
}
