import crypto from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { fromFlag, isUniqueViolation, toFlag } from '../../db/dialect.js';
import { AppError } from '../../errors.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import { DAY_MS } from './domain/levels.js';
import {
  codeFromBytes,
  DEFAULT_REFERRAL_PROGRAM,
  normalizeReferralCode,
  REFERRAL_PROGRAM_ID,
  referrerRewardFor,
  type ReferralProgram,
  type ReferrerReward,
} from './domain/referral.js';
import type { LoyaltyLedger } from './loyalty-ledger.js';
import type { PurchaseListener } from './loyalty-levels.service.js';
import * as repo from './loyalty-referral.repo.js';
import * as members from './loyalty.repo.js';
import type { LoyaltyService, MemberInput } from './loyalty.service.js';

export interface LoyaltyReferralDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'currentProfileId' | 'getProfile' | 'findProfiles'>;
  readonly members: Pick<LoyaltyService, 'findMember' | 'joinMember' | 'getSettings'>;
  readonly ledger: Pick<LoyaltyLedger, 'write'>;
}

/** A member's referral code and what it brought. */
export interface MemberReferral {
  readonly code: string;
  /** Members who joined naming the code. */
  readonly referrals: number;
  /** Of them, those whose first purchase rewarded the referrer (and was not cancelled). */
  readonly rewarded: number;
}

/** What the checkout reads of a member's referrer (`referrer_identifier`, `referral_program`, `bonuses_referrer_reward`). */
export interface ReferralOfMember {
  /** The referrer's public identifier: its phone, else its loyalty_id. */
  readonly referrerIdentifier: string;
  readonly program: ReferralProgram;
  /** The referrer's reward in bonus minor units for an order of this total (currency minor units). */
  rewardFor(orderTotalMinor: number): number;
}

export type ReferrerLookup =
  | { readonly ok: true; readonly profileId: number }
  | { readonly ok: false; readonly why: 'unknown' | 'disabled' };

const CODE_ATTEMPTS = 8;

/**
 * The referral programme (docs/loyalty.md "Referrals"): a member's code, a referee naming
 * it when joining, and the referrer's reward for the referee's first confirmed purchase,
 * credited once (a conditional UPDATE of the referral, in the ledger write of the reward)
 * and taken back if that purchase is cancelled.
 */
export class LoyaltyReferralService implements PurchaseListener {
  constructor(private readonly deps: LoyaltyReferralDeps) {}

  /** Listed after the ledger's participant (src/services.ts): the surviving member exists by then (loyalty-referral.repo.ts). */
  mergeParticipant(): MergeParticipant {
    return { name: 'loyalty referrals', merge: (trx, shopId, fromId, intoId) => repo.mergeReferrals(trx, shopId, fromId, intoId) };
  }

  private get db() {
    return this.deps.db.db;
  }

  async getProgram(shopId: string): Promise<ReferralProgram> {
    await this.deps.shops.requireShop(shopId);
    return this.readProgram(shopId);
  }

  /** Replaces the programme (validated by the caller). */
  async putProgram(shopId: string, program: { enabled: boolean; referrerReward: ReferrerReward }): Promise<ReferralProgram> {
    await this.deps.shops.requireShop(shopId);
    const now = this.deps.clock.now();
    const row = await repo.upsertProgram(this.db, {
      shop_id: shopId,
      enabled: toFlag(program.enabled),
      reward_type: program.referrerReward.type,
      reward_value: program.referrerReward.value,
      created_at: now,
      updated_at: now,
    });
    await this.deps.db.durable();
    return toProgram(row);
  }

  /** The member's code (given on the first ask) and the members it brought. */
  async memberReferral(shopId: string, identifier: string): Promise<MemberReferral> {
    const member = await this.deps.members.findMember(shopId, identifier);
    const code = await this.ensureCode(shopId, member.profileId);
    return { code, ...(await repo.countReferrals(this.db, shopId, member.profileId)) };
  }

  /** The member a referral code names, while the programme is on. */
  async findReferrer(shopId: string, code: string): Promise<ReferrerLookup> {
    const owner = await repo.findCodeOwner(this.db, shopId, normalizeReferralCode(code));
    // A code outlives a merge of its member: it names the surviving profile.
    const profileId = owner === undefined ? undefined : ((await this.deps.identity.currentProfileId(shopId, owner)) ?? owner);
    if (profileId === undefined || !(await members.isMember(this.db, shopId, profileId))) return { ok: false, why: 'unknown' };
    if (!(await this.readProgram(shopId)).enabled) return { ok: false, why: 'disabled' };
    return { ok: true, profileId };
  }

  /**
   * Records that `referrerId` brought `refereeId`. A referee keeps its first referrer; a
   * member who has bought already, or the referrer itself, is not recorded. True when recorded.
   */
  async attachReferrer(shopId: string, refereeId: number, referrerId: number): Promise<boolean> {
    if (refereeId === referrerId) return false;
    const recorded = await repo.insertReferral(this.db, shopId, refereeId, referrerId, this.deps.clock.now());
    if (recorded) await this.deps.db.durable();
    return recorded;
  }

  /**
   * POST …/loyalty/members with `referrer_code`: the code is checked before anyone
   * joins (unknown, or the programme off: 422), and a member naming its own code is
   * refused; then the member joins and the referral is recorded.
   */
  async joinWithReferrer(shopId: string, input: MemberInput, referrerCode: string | undefined) {
    if (referrerCode === undefined) return this.deps.members.joinMember(shopId, input);
    await this.deps.shops.requireShop(shopId);
    const referrer = await this.findReferrer(shopId, referrerCode);
    if (!referrer.ok) throw referrerRefused('Field', referrer.why);
    if (await this.namesProfile(shopId, input, referrer.profileId)) throw selfReferral('Field');
    const member = await this.deps.members.joinMember(shopId, input);
    if (member.profileId === referrer.profileId) throw selfReferral('Field');
    await this.attachReferrer(shopId, member.profileId, referrer.profileId);
    return member;
  }

  /** True when one of the identifiers already names `profileId` (a member about to name its own code). */
  async namesProfile(shopId: string, input: MemberInput, profileId: number): Promise<boolean> {
    const queries = [
      input.phone === undefined ? undefined : { phone: input.phone },
      input.loyaltyId === undefined ? undefined : { loyaltyId: input.loyaltyId },
      input.email === undefined ? undefined : { email: input.email },
      input.externalId === undefined ? undefined : { externalId: input.externalId },
    ];
    for (const query of queries) {
      if (!query) continue;
      const found = await this.deps.identity.findProfiles(shopId, query).catch(() => []);
      if (found.some((p) => p.id === profileId)) return true;
    }
    return false;
  }

  /**
   * The referee's purchase is confirmed: if its referral is still open, the first such
   * purchase settles it. With the programme on and a reward above zero, the referrer is
   * credited in the same ledger write that moves the referral from open to rewarded, so
   * however many reports of the purchase race, one credit is written.
   */
  async purchaseConfirmed(shopId: string, refereeId: number, orderId: string, amount: number): Promise<void> {
    const referral = await repo.findReferral(this.db, shopId, refereeId);
    if (referral?.status !== 'open') return;
    const program = await this.readProgram(shopId);
    const settings = await this.deps.members.getSettings(shopId);
    const reward = program.enabled ? referrerRewardFor(program.referrerReward, amount, settings.bonusValue) : 0;
    const referrerId = Number(referral.referrer_id);
    if (reward <= 0) {
      await this.db.transaction().execute((trx) => repo.settleReferral(trx, shopId, refereeId, orderId, 'closed', this.deps.clock.now()));
      await this.deps.db.durable();
      return;
    }
    await this.deps.ledger
      .write(shopId, referrerId, async (w) => {
        if (!(await repo.settleReferral(w.trx, shopId, refereeId, orderId, 'rewarded', w.now))) throw new NothingToDo();
        const pending = settings.rewardPendingDays > 0;
        const confirmsAt = pending ? w.now + settings.rewardPendingDays * DAY_MS : null;
        // The lifetime runs from when the reward may be spent.
        const expiresAt = settings.bonusLifetimeDays === null ? null : (confirmsAt ?? w.now) + settings.bonusLifetimeDays * DAY_MS;
        const id = await w.credit({
          amount: reward,
          status: pending ? 'pending' : 'confirmed',
          kind: 'referral',
          reason: 'Referral: the first purchase of a member you referred.',
          orderId,
          expiresAt,
          confirmsAt,
        });
        await repo.setReferralTransaction(w.trx, shopId, refereeId, id);
        return id;
      })
      .catch((error: unknown) => {
        if (error instanceof NothingToDo) return;
        throw error;
      });
  }

  /**
   * The referee's purchase is cancelled: a referral reward it earned is cancelled too
   * (what the referrer has spent of it stays spent, as for any cancelled credit). Run
   * under the referrer's lock even when the reward is not visible yet, so a reward being
   * written at this moment is seen and cancelled, or sees the purchase cancelled and is
   * not written. The referral stays closed: a later purchase earns nothing.
   */
  async purchaseCancelled(shopId: string, refereeId: number, orderId: string): Promise<void> {
    const referral = await repo.findReferral(this.db, shopId, refereeId);
    if (!referral) return;
    const mayHold = referral.status === 'open' || (referral.status === 'rewarded' && referral.order_id === orderId);
    if (!mayHold) return;
    await this.deps.ledger
      .write(shopId, Number(referral.referrer_id), async (w) => {
        const transactionId = await repo.cancelReferralReward(w.trx, shopId, refereeId, orderId, w.now);
        if (transactionId === undefined || transactionId === null) throw new NothingToDo();
        await w.cancelCredit(transactionId, 'Referral: the referred purchase was cancelled.');
        return transactionId;
      })
      .catch((error: unknown) => {
        if (error instanceof NothingToDo) return;
        // The referrer left the programme (merged away): nothing of its ledger to take back.
        if (error instanceof AppError && error.code === 'NOT_FOUND') return;
        throw error;
      });
  }

  /**
   * The checkout's read: the member's referrer while its referral waits for the first
   * purchase and the programme is on; null otherwise.
   */
  async referralOf(shopId: string, profileId: number): Promise<ReferralOfMember | null> {
    const referral = await repo.findReferral(this.db, shopId, profileId);
    if (referral?.status !== 'open') return null;
    const program = await this.readProgram(shopId);
    if (!program.enabled) return null;
    const referrer = await this.deps.identity.getProfile(shopId, Number(referral.referrer_id));
    const referrerIdentifier = referrer?.phone ?? referrer?.loyaltyId;
    if (!referrerIdentifier) return null;
    const { bonusValue } = await this.deps.members.getSettings(shopId);
    return { referrerIdentifier, program, rewardFor: (total) => referrerRewardFor(program.referrerReward, total, bonusValue) };
  }

  private async readProgram(shopId: string): Promise<ReferralProgram> {
    const row = await repo.findProgram(this.db, shopId);
    return row ? toProgram(row) : DEFAULT_REFERRAL_PROGRAM;
  }

  /** The member's code; on the first ask, a random one (drawn again if another member of the shop holds it). */
  private async ensureCode(shopId: string, profileId: number): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      const existing = await repo.findCodeOf(this.db, shopId, profileId);
      if (existing !== undefined) return existing;
      try {
        await repo.insertCode(this.db, shopId, profileId, codeFromBytes(crypto.randomBytes(8)), this.deps.clock.now());
        await this.deps.db.durable();
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= CODE_ATTEMPTS) throw error;
      }
    }
  }
}

function toProgram(row: repo.ProgramRow): ReferralProgram {
  return {
    id: REFERRAL_PROGRAM_ID,
    enabled: fromFlag(row.enabled),
    referrerReward: { type: row.reward_type, value: Number(row.reward_value) },
  };
}

/** `Field` in the admin API, `Parameter` in the public one. */
export function referrerRefused(subject: 'Field' | 'Parameter', why: 'unknown' | 'disabled'): AppError {
  const message =
    why === 'disabled'
      ? `${subject} \`referrer_code\` cannot be used: the referral programme is off.`
      : `${subject} \`referrer_code\` names no member of the loyalty programme.`;
  return new AppError('VALIDATION_FAILED', message, { field: 'referrer_code' });
}

export function selfReferral(subject: 'Field' | 'Parameter'): AppError {
  return new AppError('VALIDATION_FAILED', `${subject} \`referrer_code\` is the member's own code.`, { field: 'referrer_code' });
}

class NothingToDo extends Error {}
