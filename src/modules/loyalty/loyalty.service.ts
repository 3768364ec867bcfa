import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { TtlCache } from '../../ttl-cache.js';
import { normalizePhone } from '../identity/index.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import { balanceOf, pendingOf } from './domain/ledger.js';
import { DEFAULT_SETTINGS, type LoyaltySettings } from './domain/settings.js';
import { MEMBER_NOT_FOUND, requireAmount, toLotState, type LoyaltyLedger, type LoyaltyRollups, type Posted } from './loyalty-ledger.js';
import { findStoredLevel, type StoredLevel } from './loyalty-levels.repo.js';
import { addMember } from './member-join.js';
import * as repo from './loyalty.repo.js';

export interface LoyaltyDeps {
  /** The dashboards' rollups: a member who joins is counted in the same transaction. */
  readonly rollups?: LoyaltyRollups;
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'resolveProfile' | 'findProfiles' | 'findProfilesOnly' | 'getProfile'>;
  readonly ledger: LoyaltyLedger;
  /** Told of settings changes (credits reach it through the ledger); tests without a chain leave it out. */
  readonly upkeep?: UpkeepHooks;
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

/** A member with the level its row stored, from the same read that found it. */
export interface FoundMember extends MemberRef {
  readonly storedLevel: StoredLevel;
}

export interface LedgerEntry {
  readonly id: number;
  /** Signed minor units: credits positive, debits and holds negative. */
  readonly amount: number;
  readonly status: 'pending' | 'confirmed' | 'cancelled';
  readonly kind: string;
  readonly orderId: string | null;
  /** Why, as written with a manual credit, debit or write-off (or a cancellation); null when none was given. */
  readonly reason: string | null;
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

/** What the ledger's upkeep (loyalty-upkeep.service.ts) is told by this service. */
export interface UpkeepHooks {
  /** After a settings PUT: restarts a chain that should run and does not. */
  resumeChain(shopId: string): Promise<void>;
}

export { MEMBER_NOT_FOUND, type Posted };
export const MEMBER_TRANSACTIONS_LIMIT = 200;
const DAY_MS = 86_400_000;

/**
 * How long the checkout computes with settings it read before (settingsOf): a PUT
 * through this process is seen at once, one through another process within this time.
 */
export const SETTINGS_CACHE_TTL_MS = 1_000;
const SETTINGS_CACHE_MAX_SHOPS = 10_000;

/**
 * The loyalty programme's settings and members, and the admin's manual credits and
 * debits (docs/loyalty.md). The writes themselves are the ledger's (loyalty-ledger.ts).
 */
export class LoyaltyService {
  private readonly settingsCache: TtlCache<string, LoyaltySettings>;

  constructor(private readonly deps: LoyaltyDeps) {
    this.settingsCache = new TtlCache({ max: SETTINGS_CACHE_MAX_SHOPS, ttlMs: SETTINGS_CACHE_TTL_MS, clock: deps.clock });
  }

  /** The merged profile's ledger is the survivor's (loyalty.repo.ts moveLedger); the other loyalty participants run after it. */
  mergeParticipant(): MergeParticipant {
    return {
      name: 'loyalty ledger',
      merge: (trx, shopId, fromId, intoId) => repo.moveLedger(trx, shopId, fromId, intoId, this.deps.clock.now()),
    };
  }

  /** Drops the cached admin settings: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.settingsCache.clear();
  }

  private get db() {
    return this.deps.db.db;
  }

  async getSettings(shopId: string): Promise<LoyaltySettings> {
    await this.deps.shops.requireShop(shopId);
    const row = await repo.findSettings(this.db, shopId);
    return row ? toSettings(row) : DEFAULT_SETTINGS;
  }

  /**
   * The settings of a shop the caller has found already (the checkout's authenticated
   * shop), kept for SETTINGS_CACHE_TTL_MS: the checkout reads them on every request.
   */
  settingsOf(shopId: string): Promise<LoyaltySettings> {
    return this.settingsCache.getOrLoad(shopId, async () => {
      const row = await repo.findSettings(this.db, shopId);
      return row ? toSettings(row) : DEFAULT_SETTINGS;
    });
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
    this.settingsCache.delete(shopId);
    await this.deps.db.durable();
    await this.deps.upkeep?.resumeChain(shopId);
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
    await addMember(this.db, this.deps.rollups, shopId, profile.id, this.deps.clock.now());
    await this.deps.db.durable();
    return { profileId: profile.id, identifier, balance: await this.balanceAt(shopId, profile.id, this.deps.clock.now()) };
  }

  /** A member's balance at `now`, derived from its lots (docs/loyalty.md, "The ledger"); minor units. */
  async balanceAt(shopId: string, profileId: number, now: number): Promise<number> {
    return balanceOf((await repo.listOpenLots(this.db, shopId, profileId)).map(toLotState), now);
  }

  /**
   * The member a public identifier names: a phone (normalised as everywhere), else a
   * loyalty_id. Neither, or a profile that is not a member: NOT_FOUND.
   */
  async findMember(shopId: string, identifier: string): Promise<MemberRef> {
    await this.deps.shops.requireShop(shopId);
    return this.findMemberOf(shopId, identifier);
  }

  /** findMember of a shop the caller has found already (the checkout's authenticated shop). */
  async findMemberOf(shopId: string, identifier: string): Promise<MemberRef> {
    const member = await this.findMemberWithLevelOf(shopId, identifier);
    return { profileId: member.profileId, identifier: member.identifier };
  }

  /**
   * findMemberOf, with the level the member's row stores: the checkout hands it to
   * levelOf, so that the row is read once per request rather than twice.
   */
  async findMemberWithLevelOf(shopId: string, identifier: string): Promise<FoundMember> {
    const phone = normalizePhone(identifier);
    const candidates = phone.ok ? [{ phone: phone.value }, { loyaltyId: identifier }] : [{ loyaltyId: identifier }];
    for (const query of candidates) {
      const [profile] = await this.findProfilesQuietly(shopId, query);
      const storedLevel = profile && (await findStoredLevel(this.db, shopId, profile.id));
      if (profile && storedLevel) {
        const publicId = profile.phone ?? profile.loyaltyId ?? identifier;
        return { profileId: profile.id, identifier: publicId, storedLevel };
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
        reason: r.reason,
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
    const expiresAt = input.expiresAt ?? (settings.bonusLifetimeDays === null ? null : now + settings.bonusLifetimeDays * DAY_MS);
    return this.deps.ledger.write(shopId, member.profileId, (w) =>
      w.credit({ amount: input.amount, status: 'confirmed', kind: 'manual', reason: input.reason ?? null, orderId: null, expiresAt }),
    );
  }

  /**
   * A manual debit with a reason (`kind` debit, or write_off for bonuses written off),
   * drawn from the lots oldest expiry first; beyond the balance: CONFLICT, nothing written.
   */
  async debitManual(
    shopId: string,
    identifier: string,
    input: { amount: number; reason: string; kind?: 'debit' | 'write_off' },
  ): Promise<Posted> {
    const member = await this.findMember(shopId, identifier);
    requireAmount(input.amount);
    return this.deps.ledger.write(shopId, member.profileId, (w) =>
      w.draw(input.amount, { entry: 'debit', kind: input.kind ?? 'debit', reason: input.reason, orderId: null }),
    );
  }

  /** findProfiles refuses a malformed identifier with 422; for a lookup it is simply not found. */
  private async findProfilesQuietly(shopId: string, query: { phone?: string; loyaltyId?: string }) {
    try {
      return await this.deps.identity.findProfilesOnly(shopId, query);
    } catch (error) {
      if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return [];
      throw error;
    }
  }
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
