import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { normalizePhone } from '../identity/domain/identifiers.js';
import type { IdentityService } from '../identity/identity.service.js';
import type { ShopsService } from '../shops/shops.service.js';
import { allocateSpend, balanceOf, pendingOf, type LotState } from './domain/ledger.js';
import { DEFAULT_SETTINGS, type LoyaltySettings } from './domain/settings.js';
import * as repo from './loyalty.repo.js';

export interface LoyaltyDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'resolveProfile' | 'findProfiles' | 'getProfile' | 'onMerge'>;
}

export interface MemberInput {
  readonly phone?: string | undefined;
  readonly email?: string | undefined;
  readonly loyaltyId?: string | undefined;
  readonly externalId?: string | undefined;
}

export interface MemberRef {
  readonly profileId: number;
  /** The phone, or the loyalty_id when the profile has no phone. */
  readonly identifier: string;
}

export interface LedgerEntry {
  readonly id: number;
  /** Signed minor units: credits positive, debits and holds negative. */
  readonly amount: number;
  readonly status: 'pending' | 'confirmed' | 'cancelled';
  readonly kind: string;
  readonly orderId: string | null;
  readonly createdAt: number;
  readonly expiresAt: number | null;
}

export interface MemberView extends MemberRef {
  /** Minor units. */
  readonly balance: number;
  readonly pending: number;
  /** Newest first, at most MEMBER_TRANSACTIONS_LIMIT. */
  readonly transactions: readonly LedgerEntry[];
}

export interface Posted {
  readonly transactionId: number;
  /** The balance after the change, minor units. */
  readonly balance: number;
}

export const MEMBER_NOT_FOUND = 'Member not found.';
export const MEMBER_TRANSACTIONS_LIMIT = 200;
const DAY_MS = 86_400_000;

/**
 * The loyalty programme's settings, members and bonus ledger (docs/loyalty.md). Every
 * ledger write is one transaction that first locks the member (repo.lockMember), then
 * draws from lots with conditional UPDATEs: the database, not a read before the write,
 * keeps any lot from going below zero and any member from spending twice.
 */
export class LoyaltyService {
  constructor(private readonly deps: LoyaltyDeps) {
    deps.identity.onMerge((trx, shopId, fromId, intoId) => repo.moveLedger(trx, shopId, fromId, intoId, deps.clock.now()));
  }

  private get db() {
    return this.deps.db.db;
  }

  async getSettings(shopId: string): Promise<LoyaltySettings> {
    await this.deps.shops.requireShop(shopId);
    const row = await repo.findSettings(this.db, shopId);
    return row ? toSettings(row) : DEFAULT_SETTINGS;
  }

  /** Replaces the programme's settings (validated by the caller: domain/settings.ts). */
  async putSettings(shopId: string, settings: LoyaltySettings): Promise<LoyaltySettings> {
    await this.deps.shops.requireShop(shopId);
    const now = this.deps.clock.now();
    const row = await repo.upsertSettings(this.db, {
      shop_id: shopId,
      reward_percent: settings.rewardPercent,
      max_bonus_share_percent: settings.maxBonusSharePercent,
      bonus_value: settings.bonusValue,
      bonus_lifetime_days: settings.bonusLifetimeDays,
      reward_pending_days: settings.rewardPendingDays,
      created_at: now,
      updated_at: now,
    });
    await this.deps.db.durable();
    return toSettings(row);
  }

  /**
   * Makes the profile these identifiers resolve to (created if none) a member; a member
   * already is answered as it is. A phone or a loyalty_id is required: one of them is
   * the member's public identifier.
   */
  async joinMember(shopId: string, input: MemberInput): Promise<MemberRef & { balance: number }> {
    await this.deps.shops.requireShop(shopId);
    if (input.phone === undefined && input.loyaltyId === undefined) {
      throw new AppError('VALIDATION_FAILED', 'Field `phone` or `loyalty_id` is required.', { field: 'phone' });
    }
    const resolved = await this.deps.identity
      .resolveProfile(shopId, {
        phone: input.phone ?? null,
        email: input.email ?? null,
        loyaltyId: input.loyaltyId ?? null,
        externalId: input.externalId ?? null,
      })
      .catch((error: unknown) => {
        // Identity names the public API's parameters; here they are fields of a JSON body.
        const field = error instanceof AppError && error.code === 'VALIDATION_FAILED' ? error.details?.field : undefined;
        if (typeof field === 'string') throw new AppError('VALIDATION_FAILED', `Field \`${field}\` is not valid.`, { field });
        throw error;
      });
    const profile = await this.deps.identity.getProfile(shopId, resolved.profileId);
    const identifier = profile?.phone ?? profile?.loyaltyId;
    if (!profile || !identifier) throw new AppError('CONFLICT', 'The profile was changed by concurrent requests; try again.');
    await repo.insertMember(this.db, shopId, profile.id, this.deps.clock.now());
    await this.deps.db.durable();
    const lots = await repo.listOpenLots(this.db, shopId, profile.id);
    return { profileId: profile.id, identifier, balance: balanceOf(lots.map(toLotState), this.deps.clock.now()) };
  }

  /**
   * The member a public identifier names: a phone (normalised as everywhere), else a
   * loyalty_id. Neither, or a profile that is not a member: NOT_FOUND.
   */
  async findMember(shopId: string, identifier: string): Promise<MemberRef> {
    await this.deps.shops.requireShop(shopId);
    const phone = normalizePhone(identifier);
    const candidates = phone.ok ? [{ phone: phone.value }, { loyaltyId: identifier }] : [{ loyaltyId: identifier }];
    for (const query of candidates) {
      const [profile] = await this.findProfilesQuietly(shopId, query);
      if (profile && (await repo.isMember(this.db, shopId, profile.id))) {
        const publicId = profile.phone ?? profile.loyaltyId ?? identifier;
        return { profileId: profile.id, identifier: publicId };
      }
    }
    throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
  }

  async viewMember(shopId: string, identifier: string): Promise<MemberView> {
    const member = await this.findMember(shopId, identifier);
    const now = this.deps.clock.now();
    const lots = (await repo.listOpenLots(this.db, shopId, member.profileId)).map(toLotState);
    const rows = await repo.listTransactions(this.db, shopId, member.profileId, MEMBER_TRANSACTIONS_LIMIT);
    return {
      ...member,
      balance: balanceOf(lots, now),
      pending: pendingOf(lots),
      transactions: rows.map((r) => ({
        id: r.id,
        amount: r.amount,
        status: r.status,
        kind: r.kind,
        orderId: r.order_id,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
      })),
    };
  }

  /**
   * A confirmed manual credit (the admin core's POST …/bonuses). Without `expiresAt` the
   * lot lives `bonus_lifetime_days` of the programme (forever when null); an `expiresAt`
   * that is not in the future is refused.
   */
  async creditManual(
    shopId: string,
    identifier: string,
    input: { amount: number; expiresAt?: number | undefined; reason?: string | undefined },
  ): Promise<Posted> {
    const member = await this.findMember(shopId, identifier);
    const now = this.deps.clock.now();
    requireAmount(input.amount);
    if (input.expiresAt !== undefined && input.expiresAt <= now) {
      throw new AppError('VALIDATION_FAILED', 'Field `expires_at` must be in the future.', { field: 'expires_at' });
    }
    const settings = await this.getSettings(shopId);
    const expiresAt =
      input.expiresAt ?? (settings.bonusLifetimeDays === null ? null : now + settings.bonusLifetimeDays * DAY_MS);
    return this.withMemberLocked(shopId, member.profileId, async (trx) => {
      const id = await repo.nextTransactionId(trx, shopId);
      const common = {
        shop_id: shopId,
        id,
        profile_id: member.profileId,
        status: 'confirmed' as const,
        kind: 'manual' as const,
        reason: input.reason ?? null,
        order_id: null,
        expires_at: expiresAt,
        created_at: now,
        updated_at: now,
      };
      await repo.insertTransaction(trx, { ...common, entry: 'credit', amount: input.amount });
      await repo.insertLot(trx, { ...common, amount: input.amount, remaining: input.amount });
      return id;
    });
  }

  /** A manual debit with a reason, drawn from the lots oldest expiry first; beyond the balance: CONFLICT, nothing written. */
  async debitManual(shopId: string, identifier: string, input: { amount: number; reason: string }): Promise<Posted> {
    const member = await this.findMember(shopId, identifier);
    requireAmount(input.amount);
    return this.withMemberLocked(shopId, member.profileId, (trx) =>
      this.drawFromLots(trx, shopId, member.profileId, input.amount, { entry: 'debit', kind: 'debit', reason: input.reason, orderId: null }),
    );
  }

  /**
   * Blocks `amount` for an order: a pending debit that reserves its lots (recorded as
   * allocations) until it is captured or released. Beyond the balance, or a second
   * active hold of the order (a unique index): CONFLICT, nothing written.
   */
  async placeHold(shopId: string, profileId: number, orderId: string, amount: number): Promise<Posted> {
    requireAmount(amount);
    return this.withMemberLocked(shopId, profileId, async (trx) => {
      const id = await this.drawFromLots(trx, shopId, profileId, amount, { entry: 'hold', kind: 'order_hold', reason: null, orderId });
      const now = this.deps.clock.now();
      try {
        await repo.insertHold(trx, { shop_id: shopId, id, profile_id: profileId, order_id: orderId, amount, status: 'active', created_at: now, updated_at: now });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'The order already has bonuses on hold.');
        throw error;
      }
      return id;
    });
  }

  /** Voids an active hold: its lots get back exactly what it took. False when it was not active. */
  async releaseHold(shopId: string, holdId: number): Promise<boolean> {
    return this.settle(shopId, holdId, 'released');
  }

  /** Posts an active hold: what it reserved is spent for good. False when it was not active. */
  async captureHold(shopId: string, holdId: number): Promise<boolean> {
    return this.settle(shopId, holdId, 'captured');
  }

  private async settle(shopId: string, holdId: number, outcome: 'released' | 'captured'): Promise<boolean> {
    const now = this.deps.clock.now();
    const settled = await this.db.transaction().execute(async (trx) => {
      const hold = await repo.settleHold(trx, shopId, holdId, outcome, now);
      if (!hold) return false;
      await repo.lockMember(trx, shopId, hold.profile_id, now);
      if (outcome === 'released') {
        for (const part of await repo.listAllocations(trx, shopId, holdId)) {
          await repo.returnToLot(trx, shopId, part.lot_id, part.amount, now);
        }
      }
      await repo.setTransactionStatus(trx, shopId, holdId, outcome === 'released' ? 'cancelled' : 'confirmed', now);
      return true;
    });
    if (settled) await this.deps.db.durable();
    return settled;
  }

  /**
   * Draws `amount` from the member's spendable lots in spend order (domain/ledger.ts),
   * each with a conditional UPDATE, and records the allocations; the caller holds the
   * member lock. Not enough: CONFLICT, and the caller's transaction rolls back.
   */
  private async drawFromLots(
    trx: Transaction<Database>,
    shopId: string,
    profileId: number,
    amount: number,
    entry: { entry: 'debit' | 'hold'; kind: string; reason: string | null; orderId: string | null },
  ): Promise<number> {
    const now = this.deps.clock.now();
    const lots = (await repo.listOpenLots(trx, shopId, profileId)).map(toLotState);
    const allocation = allocateSpend(lots, amount, now);
    if (!allocation.ok) throw notEnough(allocation.available);
    const id = await repo.nextTransactionId(trx, shopId);
    await repo.insertTransaction(trx, {
      shop_id: shopId,
      id,
      profile_id: profileId,
      entry: entry.entry,
      amount: -amount,
      status: entry.entry === 'hold' ? 'pending' : 'confirmed',
      kind: entry.kind,
      reason: entry.reason,
      order_id: entry.orderId,
      expires_at: null,
      created_at: now,
      updated_at: now,
    });
    for (const part of allocation.parts) {
      // Cannot fail under the member lock; if it ever does, the whole write rolls back.
      if (!(await repo.takeFromLot(trx, shopId, part.lotId, part.amount, now))) {
        throw new AppError('CONFLICT', 'The bonuses were changed by concurrent requests; try again.');
      }
    }
    await repo.insertAllocations(trx, shopId, id, allocation.parts);
    return id;
  }

  /**
   * Runs a ledger write in one transaction under the member's lock, and answers the
   * balance it leaves once the write is on disk (SQLite's WAL is synced by durable()).
   */
  private async withMemberLocked(
    shopId: string,
    profileId: number,
    work: (trx: Transaction<Database>) => Promise<number>,
  ): Promise<Posted> {
    const posted = await this.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      if (!(await repo.lockMember(trx, shopId, profileId, now))) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
      const transactionId = await work(trx);
      const lots = await repo.listOpenLots(trx, shopId, profileId);
      return { transactionId, balance: balanceOf(lots.map(toLotState), now) };
    });
    await this.deps.db.durable();
    return posted;
  }

  /** findProfiles refuses a malformed identifier with 422; for a lookup it is simply not found. */
  private async findProfilesQuietly(shopId: string, query: { phone?: string; loyaltyId?: string }) {
    try {
      return await this.deps.identity.findProfiles(shopId, query);
    } catch (error) {
      if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return [];
      throw error;
    }
  }
}

function requireAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new AppError('VALIDATION_FAILED', 'Field `amount` must be greater than 0.', { field: 'amount' });
  }
}

function notEnough(available: number): AppError {
  return new AppError('CONFLICT', `Not enough bonuses: the balance is ${(available / 100).toFixed(2)}.`);
}

function toLotState(row: repo.LotRow): LotState {
  return { id: row.id, remaining: row.remaining, status: row.status, expiresAt: row.expires_at, createdAt: row.created_at };
}

function toSettings(row: repo.SettingsRow): LoyaltySettings {
  return {
    rewardPercent: row.reward_percent,
    maxBonusSharePercent: row.max_bonus_share_percent,
    bonusValue: row.bonus_value,
    bonusLifetimeDays: row.bonus_lifetime_days,
    rewardPendingDays: row.reward_pending_days,
  };
}
