import type { Transaction } from 'kysely';
import type { DashboardRollups } from '../dashboards/index.js';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database, LotKind } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Late } from '../../late.js';
import { allocateSpend, balanceOf, type LotState } from './domain/ledger.js';
import { lotDueAt } from './domain/upkeep.js';
import * as repo from './loyalty.repo.js';

export const MEMBER_NOT_FOUND = 'Member not found.';

/** The debit kind that is a member spending bonuses (docs/dashboards.md); `write_off` is not. */
const SPENDING_DEBIT = 'debit';

/** What the ledger tells the dashboards (dashboards/rollups.ts), in its write's transaction. */
export type LoyaltyRollups = Pick<DashboardRollups, 'loyalty'>;

/** The upkeep's scheduling: its chain runs by `dueAt` (loyalty-upkeep.service.ts ensureScheduled). */
export type LotsDueHook = (shopId: string, dueAt: number) => Promise<void>;

export interface Posted {
  readonly transactionId: number;
  /** The balance after the change, minor units. */
  readonly balance: number;
}

export interface CreditSpec {
  /** Minor units, > 0. */
  readonly amount: number;
  readonly status: 'pending' | 'confirmed';
  readonly kind: LotKind;
  readonly reason: string | null;
  readonly orderId: string | null;
  readonly expiresAt: number | null;
  /** When a pending lot becomes confirmed (the upkeep job); null for confirmed lots. */
  readonly confirmsAt?: number | null;
}

export interface DrawSpec {
  readonly entry: 'debit' | 'hold';
  /** `debit`, `write_off`, `order_hold`, `order_spend` … */
  readonly kind: string;
  readonly reason: string | null;
  readonly orderId: string | null;
}

export type CancelOutcome =
  | { readonly ok: true /** What the cancel took back: the lot's remaining. */; readonly taken: number; readonly entryId: number | null }
  | { readonly ok: false; readonly why: 'not_found' | 'not_a_credit' | 'already_cancelled' };

export type RefundOutcome =
  | { readonly ok: true; readonly refunded: number; readonly entryId: number }
  | { readonly ok: false; readonly why: 'not_found' | 'not_refundable' | 'already_refunded' };

/**
 * One ledger write of one member, inside its transaction and under its lock. Every
 * method adds a transaction row with its own id (docs/loyalty.md, "The ledger").
 */
export interface LedgerWrite {
  readonly trx: Transaction<Database>;
  readonly shopId: string;
  readonly profileId: number;
  readonly now: number;
  /** A lot: a credit transaction and its lot, sharing the id. */
  credit(spec: CreditSpec): Promise<number>;
  /** Draws from the spendable lots in spend order; not enough: CONFLICT (the write rolls back). */
  draw(amount: number, spec: DrawSpec): Promise<number>;
  /**
   * Blocks `amount` for an order: a pending debit that reserves its lots (recorded as
   * allocations) until it is captured or released (settleHoldIn). Beyond the balance, or a
   * second active hold of the order (a unique index): CONFLICT (the write rolls back; on
   * PostgreSQL a unique violation has aborted the transaction anyway).
   */
  hold(orderId: string, amount: number): Promise<number>;
  /**
   * Takes a credit back: the lot is cancelled and what is left of it written off by a
   * `cancellation` entry. What was already spent stays spent (docs/loyalty.md).
   */
  cancelCredit(transactionId: number, reason: string | null): Promise<CancelOutcome>;
  /** Gives a confirmed debit or captured hold back to exactly the lots it drew from. */
  refund(transactionId: number, reason: string | null): Promise<RefundOutcome>;
  /** A pending lot becomes confirmed; false when it was not pending. */
  confirmLot(lotId: number): Promise<boolean>;
  /** Writes off what is left of an expired lot as an `expiry` entry; the amount (0: nothing). */
  expireLot(lotId: number): Promise<number>;
}

/**
 * The bonus ledger's writes (docs/loyalty.md). Every write is one transaction that first
 * locks the member (repo.lockMember), then draws from lots with conditional UPDATEs: the
 * database, not a read before the write, keeps any lot from going below zero and any
 * member from spending twice. The answer comes once the write is on disk.
 */
export class LoyaltyLedger {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      /**
       * Told after every committed write that credited a lot which will need the upkeep (a
       * pending lot, a lot that expires), with the earliest such instant, so that the
       * upkeep's chain is scheduled whoever credits. The upkeep writes through the ledger,
       * so it is built after it and bound late (module.ts); tests without a chain
       * leave it out.
       */
      readonly lotsDue?: Late<LotsDueHook>;
      /** The dashboards' rollups: bonuses issued and spent, counted in the write's transaction. */
      readonly rollups?: LoyaltyRollups;
    },
  ) {}

  /** Runs `work` as one ledger write of the member; unknown member: NOT_FOUND. */
  async write(shopId: string, profileId: number, work: (w: LedgerWrite) => Promise<number>): Promise<Posted> {
    let dueAt: number | null = null;
    const posted = await this.deps.db.db.transaction().execute(async (trx) => {
      const joined = await this.writeIn(trx, shopId, profileId, work);
      dueAt = joined.dueAt;
      return { transactionId: joined.transactionId, balance: await balanceIn(trx, shopId, profileId, this.deps.clock.now()) };
    });
    await this.deps.db.durable();
    await this.lotsDue(shopId, dueAt);
    return posted;
  }

  /**
   * The same write inside a caller's transaction (the checkout's apply, confirm and cancel
   * place, capture and refund in one transaction with their other holds): the member is
   * locked in `trx` and the work joins it, so it commits or rolls back with the caller's.
   * The caller commits, then calls `db.durable()` and `lotsDue(shopId, dueAt)`.
   */
  async writeIn(
    trx: Transaction<Database>,
    shopId: string,
    profileId: number,
    work: (w: LedgerWrite) => Promise<number>,
  ): Promise<{ transactionId: number; dueAt: number | null }> {
    const now = this.deps.clock.now();
    if (!(await repo.lockMember(trx, shopId, profileId, now))) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
    const write = new Write(trx, shopId, profileId, now, this.deps.rollups);
    const transactionId = await work(write);
    return { transactionId, dueAt: write.earliestDue };
  }

  /** After a committed write that credited lots needing the upkeep: tells the upkeep (`deps.lotsDue`). */
  async lotsDue(shopId: string, dueAt: number | null): Promise<void> {
    const hook = this.deps.lotsDue?.get();
    if (dueAt !== null && hook) await hook(shopId, dueAt);
  }

  /** The amount of an active hold; 0 when it is not active (released, captured or unknown). */
  async activeHoldAmount(shopId: string, holdId: number): Promise<number> {
    const hold = await repo.findHold(this.deps.db.db, shopId, holdId);
    return hold?.status === 'active' ? Number(hold.amount) : 0;
  }

  /** Releases or captures an active hold inside the caller's transaction (see writeIn). False when it was not active. */
  async settleHoldIn(trx: Transaction<Database>, shopId: string, holdId: number, outcome: 'released' | 'captured'): Promise<boolean> {
    const now = this.deps.clock.now();
    const hold = await repo.settleHold(trx, shopId, holdId, outcome, now);
    if (!hold) return false;
    await repo.lockMember(trx, shopId, hold.profile_id, now);
    if (outcome === 'released') await restoreAllocations(trx, shopId, holdId, now);
    else await this.deps.rollups?.loyalty(trx, shopId, { spent: Number(hold.amount) }, now);
    await repo.setTransactionStatus(trx, shopId, holdId, outcome === 'released' ? 'cancelled' : 'confirmed', now);
    return true;
  }
}

class Write implements LedgerWrite {
  /** The earliest instant a lot credited by this write needs the upkeep; null: none does. */
  earliestDue: number | null = null;

  constructor(
    readonly trx: Transaction<Database>,
    readonly shopId: string,
    readonly profileId: number,
    readonly now: number,
    private readonly rollups: LoyaltyRollups | undefined,
  ) {}

  async credit(spec: CreditSpec): Promise<number> {
    requireAmount(spec.amount);
    const id = await repo.nextTransactionId(this.trx, this.shopId);
    const common = {
      shop_id: this.shopId,
      id,
      profile_id: this.profileId,
      status: spec.status,
      kind: spec.kind,
      reason: spec.reason,
      order_id: spec.orderId,
      expires_at: spec.expiresAt,
      created_at: this.now,
      updated_at: this.now,
    };
    await repo.insertTransaction(this.trx, { ...common, entry: 'credit', amount: spec.amount });
    await repo.insertLot(this.trx, {
      ...common,
      amount: spec.amount,
      remaining: spec.amount,
      confirms_at: spec.status === 'pending' ? (spec.confirmsAt ?? null) : null,
    });
    await this.rollups?.loyalty(this.trx, this.shopId, { issued: spec.amount }, this.now);
    const due = lotDueAt(spec);
    if (due !== null) this.earliestDue = this.earliestDue === null ? due : Math.min(this.earliestDue, due);
    return id;
  }

  async draw(amount: number, spec: DrawSpec): Promise<number> {
    requireAmount(amount);
    const lots = (await repo.listOpenLots(this.trx, this.shopId, this.profileId)).map(toLotState);
    const allocation = allocateSpend(lots, amount, this.now);
    if (!allocation.ok) throw notEnough(allocation.available);
    const id = await this.entry({
      entry: spec.entry,
      amount: -amount,
      status: spec.entry === 'hold' ? 'pending' : 'confirmed',
      kind: spec.kind,
      reason: spec.reason,
      orderId: spec.orderId,
    });
    for (const part of allocation.parts) {
      // Cannot fail under the member lock; if it ever does, the whole write rolls back.
      if (!(await repo.takeFromLot(this.trx, this.shopId, part.lotId, part.amount, this.now, ['confirmed']))) {
        throw new AppError('CONFLICT', 'The bonuses were changed by concurrent requests; try again.');
      }
    }
    await repo.insertAllocations(this.trx, this.shopId, id, allocation.parts);
    // A hold counts as spent when it is captured (settleHoldIn); write-offs are not spending.
    if (spec.entry === 'debit' && spec.kind === SPENDING_DEBIT)
      await this.rollups?.loyalty(this.trx, this.shopId, { spent: amount }, this.now);
    return id;
  }

  async hold(orderId: string, amount: number): Promise<number> {
    const id = await this.draw(amount, { entry: 'hold', kind: 'order_hold', reason: null, orderId });
    try {
      await repo.insertHold(this.trx, {
        shop_id: this.shopId,
        id,
        profile_id: this.profileId,
        order_id: orderId,
        amount,
        status: 'active',
        created_at: this.now,
        updated_at: this.now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'The order already has bonuses on hold.');
      throw error;
    }
    return id;
  }

  async cancelCredit(transactionId: number, reason: string | null): Promise<CancelOutcome> {
    const lot = await repo.findLot(this.trx, this.shopId, this.profileId, transactionId);
    if (!lot) {
      const exists = await repo.findTransaction(this.trx, this.shopId, this.profileId, transactionId);
      return { ok: false, why: exists ? 'not_a_credit' : 'not_found' };
    }
    if (lot.status === 'cancelled') return { ok: false, why: 'already_cancelled' };
    // Under the member lock nothing else moves this lot: the read above is what is left.
    const taken = lot.remaining;
    let entryId: number | null = null;
    if (taken > 0) {
      entryId = await this.entry({
        entry: 'debit',
        amount: -taken,
        status: 'confirmed',
        kind: 'cancellation',
        reason,
        orderId: lot.order_id,
      });
      if (!(await repo.takeFromLot(this.trx, this.shopId, lot.id, taken, this.now, ['confirmed', 'pending']))) {
        throw new AppError('CONFLICT', 'The bonuses were changed by concurrent requests; try again.');
      }
      await repo.insertAllocations(this.trx, this.shopId, entryId, [{ lotId: lot.id, amount: taken }]);
    }
    await repo.setLotStatus(this.trx, this.shopId, lot.id, ['pending', 'confirmed'], 'cancelled', this.now);
    await repo.setTransactionStatus(this.trx, this.shopId, lot.id, 'cancelled', this.now);
    return { ok: true, taken, entryId };
  }

  async refund(transactionId: number, reason: string | null): Promise<RefundOutcome> {
    const draw = await repo.findTransaction(this.trx, this.shopId, this.profileId, transactionId);
    if (!draw) return { ok: false, why: 'not_found' };
    if (draw.entry === 'credit' || draw.entry === 'refund' || draw.kind === 'cancellation' || draw.kind === 'expiry') {
      return { ok: false, why: 'not_refundable' };
    }
    // The one conditional UPDATE that makes a refund happen once: a hold must be captured
    // (its hold row) and the draw still confirmed.
    if (draw.entry === 'hold' && (await repo.findHold(this.trx, this.shopId, transactionId))?.status !== 'captured') {
      return { ok: false, why: 'not_refundable' };
    }
    if (!(await repo.cancelTransaction(this.trx, this.shopId, transactionId, 'confirmed', this.now))) {
      return { ok: false, why: draw.status === 'cancelled' ? 'already_refunded' : 'not_refundable' };
    }
    const refunded = await restoreAllocations(this.trx, this.shopId, transactionId, this.now);
    const entryId = await this.entry({
      entry: 'refund',
      amount: refunded,
      status: 'confirmed',
      kind: 'refund',
      reason,
      orderId: draw.order_id,
    });
    return { ok: true, refunded, entryId };
  }

  async confirmLot(lotId: number): Promise<boolean> {
    if (!(await repo.setLotStatus(this.trx, this.shopId, lotId, ['pending'], 'confirmed', this.now))) return false;
    await repo.setTransactionStatus(this.trx, this.shopId, lotId, 'confirmed', this.now);
    return true;
  }

  async expireLot(lotId: number): Promise<number> {
    const lot = await repo.findLot(this.trx, this.shopId, this.profileId, lotId);
    if (!lot || lot.status === 'cancelled' || lot.remaining === 0 || lot.expires_at === null || lot.expires_at > this.now) return 0;
    const id = await this.entry({
      entry: 'debit',
      amount: -lot.remaining,
      status: 'confirmed',
      kind: 'expiry',
      reason: null,
      orderId: lot.order_id,
    });
    if (!(await repo.takeFromLot(this.trx, this.shopId, lot.id, lot.remaining, this.now, ['confirmed', 'pending']))) {
      throw new AppError('CONFLICT', 'The bonuses were changed by concurrent requests; try again.');
    }
    await repo.insertAllocations(this.trx, this.shopId, id, [{ lotId: lot.id, amount: lot.remaining }]);
    return lot.remaining;
  }

  /** A transaction row that is not a credit (credits carry their lot's fields). */
  private async entry(e: {
    entry: 'debit' | 'hold' | 'refund';
    amount: number;
    status: 'pending' | 'confirmed';
    kind: string;
    reason: string | null;
    orderId: string | null;
  }): Promise<number> {
    const id = await repo.nextTransactionId(this.trx, this.shopId);
    await repo.insertTransaction(this.trx, {
      shop_id: this.shopId,
      id,
      profile_id: this.profileId,
      entry: e.entry,
      amount: e.amount,
      status: e.status,
      kind: e.kind,
      reason: e.reason,
      order_id: e.orderId,
      expires_at: null,
      created_at: this.now,
      updated_at: this.now,
    });
    return id;
  }
}

/** Gives every allocation of a draw back to its lot; the total given back. */
async function restoreAllocations(trx: Transaction<Database>, shopId: string, transactionId: number, now: number): Promise<number> {
  let total = 0;
  for (const part of await repo.listAllocations(trx, shopId, transactionId)) {
    await repo.returnToLot(trx, shopId, part.lot_id, part.amount, now);
    total += part.amount;
  }
  return total;
}

async function balanceIn(trx: Transaction<Database>, shopId: string, profileId: number, now: number): Promise<number> {
  return balanceOf((await repo.listOpenLots(trx, shopId, profileId)).map(toLotState), now);
}

export function requireAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new AppError('VALIDATION_FAILED', 'Field `amount` must be greater than 0.', { field: 'amount' });
  }
}

function notEnough(available: number): AppError {
  return new AppError('CONFLICT', `Not enough bonuses: the balance is ${(available / 100).toFixed(2)}.`);
}

export function toLotState(row: repo.LotRow): LotState {
  return { id: row.id, remaining: row.remaining, status: row.status, expiresAt: row.expires_at, createdAt: row.created_at };
}
