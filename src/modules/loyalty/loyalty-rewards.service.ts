import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import type { StoredEvent, TrackingSubscriber } from '../tracking/index.js';
import { EVENT_CODE_MAX_LENGTH, isEventCode, rewardTerms } from './domain/event-rewards.js';
import { requireAmount, type LoyaltyLedger } from './loyalty-ledger.js';
import * as rewardsRepo from './loyalty-rewards.repo.js';
import * as repo from './loyalty.repo.js';
import type { LoyaltyService, MemberRef } from './loyalty.service.js';
import { RewardCodesCache } from './reward-codes.cache.js';

export interface LoyaltyRewardsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'currentProfileId'>;
  readonly ledger: LoyaltyLedger;
  /** The programme's settings and the reading of a public identifier (phone, else loyalty_id). */
  readonly loyalty: Pick<LoyaltyService, 'findMember' | 'getSettings'>;
}

export interface EventRewardRule {
  readonly eventCode: string;
  /** Minor units. */
  readonly amount: number;
}

export type RewardOutcome =
  | { readonly rewarded: true; readonly transactionId: number }
  | { readonly rewarded: false; readonly why: 'not_custom' | 'no_rule' | 'not_a_member' | 'already_rewarded' };

export type RewardCancelOutcome =
  | { readonly ok: true /** Minor units taken back: what was left of the reward. */; readonly taken: number }
  | { readonly ok: false; readonly why: 'member_not_found' | 'not_found' | 'not_a_reward' | 'already_cancelled' };

/** The tracking subscriber's name: stored in `tracking.deliver` jobs, so never renamed. */
export const EVENT_REWARDS_SUBSCRIBER = 'loyalty.event_rewards';
/** A shop's rules listed at most (by code). */
export const MAX_LISTED_RULES = 1000;
/** A process reads a shop's rule codes again after this; it never answers from codes twice as old. */
export const RULE_CODES_REFRESH_MS = 10_000;
const RULE_CODES_MAX_SHOPS = 10_000;
/** Merges followed while a reward finds its member (one is the norm; more means a storm of merges). */
const MERGE_FOLLOWS = 3;

const ruleNotFound = (code: string) => new AppError('NOT_FOUND', `Event reward \`${code}\` does not exist.`);

/** Thrown inside a ledger write to roll the cancel back with nothing written. */
class CancelRefused extends Error {
  constructor(readonly why: Exclude<RewardCancelOutcome, { ok: true }>['why']) {
    super(why);
  }
}

/** Thrown inside a ledger write when the member and code were rewarded already: the credit rolls back. */
class AlreadyRewarded extends Error {}

/**
 * Event rewards (issue 13 part 4, docs/loyalty.md "Event rewards"): the shop's rules (a
 * custom event code and an amount), the tracking subscriber that credits a member the
 * first time it sends an event with a rewarded code, and the cancel of such a reward
 * (PATCH /loyalty/bonuses/cancel). Every credit and cancel is a write of the ledger
 * (loyalty-ledger.ts); "once per member and code" is the primary key of
 * `loyalty_event_rewarded`, written in the credit's transaction.
 */
export class LoyaltyRewardsService {
  private readonly codes: RewardCodesCache;

  constructor(private readonly deps: LoyaltyRewardsDeps) {
    this.codes = new RewardCodesCache((shopId) => rewardsRepo.listRuleCodes(deps.db.db, shopId), {
      clock: deps.clock,
      refreshMs: RULE_CODES_REFRESH_MS,
      maxShops: RULE_CODES_MAX_SHOPS,
    });
  }

  /** The merged profile's rewarded event codes are the survivor's. */
  mergeParticipant(): MergeParticipant {
    return {
      name: 'loyalty rewards',
      merge: async (trx, shopId, fromId, intoId) => {
        // The survivor's member lock first, as its reward writes take it: a reward being
        // written for it commits before its rewarded codes are compared here.
        await repo.lockMember(trx, shopId, intoId, this.deps.clock.now());
        await rewardsRepo.moveRewarded(trx, shopId, fromId, intoId);
      },
    };
  }

  private get db() {
    return this.deps.db.db;
  }

  /** Sets the amount a code rewards (minor units); the rule applies to events handled from now on. */
  async putRule(shopId: string, eventCode: string, amount: number): Promise<EventRewardRule> {
    await this.deps.shops.requireShop(shopId);
    requireEventCode(eventCode);
    requireAmount(amount);
    const now = this.deps.clock.now();
    const row = await rewardsRepo.upsertRule(this.db, { shop_id: shopId, event_code: eventCode, amount, created_at: now, updated_at: now });
    this.codes.invalidate(shopId);
    await this.deps.db.durable();
    return toRule(row);
  }

  async getRule(shopId: string, eventCode: string): Promise<EventRewardRule> {
    await this.deps.shops.requireShop(shopId);
    const row = isEventCode(eventCode) ? await rewardsRepo.findRule(this.db, shopId, eventCode) : undefined;
    if (!row) throw ruleNotFound(eventCode);
    return toRule(row);
  }

  /** The shop's rules by code, at most MAX_LISTED_RULES. */
  async listRules(shopId: string): Promise<EventRewardRule[]> {
    await this.deps.shops.requireShop(shopId);
    return (await rewardsRepo.listRules(this.db, shopId, MAX_LISTED_RULES)).map(toRule);
  }

  /** Removes the rule: events handled from now on earn nothing; rewards given stay. */
  async deleteRule(shopId: string, eventCode: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!isEventCode(eventCode) || !(await rewardsRepo.deleteRule(this.db, shopId, eventCode))) throw ruleNotFound(eventCode);
    this.codes.invalidate(shopId);
    await this.deps.db.durable();
  }

  /**
   * Credits the event's member the rule's amount, once per member and code. Safe to run
   * again for the same event, and for any number of events of one code at once: the
   * rewarded row's primary key lets one credit commit. A profile that is not a member
   * earns nothing (and is not rewarded later for this event).
   */
  async rewardEvent(event: StoredEvent): Promise<RewardOutcome> {
    if (!event.custom) return { rewarded: false, why: 'not_custom' };
    const rule = await rewardsRepo.findRule(this.db, event.shopId, event.event);
    if (!rule) return { rewarded: false, why: 'no_rule' };
    let profileId = event.profileId;
    for (let follow = 0; follow < MERGE_FOLLOWS; follow += 1) {
      const current = await this.deps.identity.currentProfileId(event.shopId, profileId);
      if (current === undefined) break;
      profileId = current;
      // The usual repeat of a code stops here without a write; the primary key is what guarantees once.
      if (await rewardsRepo.findRewarded(this.db, event.shopId, profileId, rule.event_code)) {
        return { rewarded: false, why: 'already_rewarded' };
      }
      if (!(await repo.isMember(this.db, event.shopId, profileId))) break;
      const outcome = await this.credit(event, rule, profileId);
      if (outcome !== 'merged') return outcome;
    }
    return { rewarded: false, why: 'not_a_member' };
  }

  /**
   * PATCH /loyalty/bonuses/cancel: takes an event reward of the member back. What is left
   * of it is written off and the credit becomes `cancelled`; what was already spent stays
   * spent. Any other outcome writes nothing.
   */
  async cancelReward(shopId: string, identifier: string, transactionId: number): Promise<RewardCancelOutcome> {
    await this.deps.shops.requireShop(shopId);
    let member: MemberRef;
    try {
      member = await this.deps.loyalty.findMember(shopId, identifier);
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return { ok: false, why: 'member_not_found' };
      throw error;
    }
    let taken = 0;
    try {
      await this.deps.ledger.write(shopId, member.profileId, async (w) => {
        const lot = await repo.findLot(w.trx, shopId, w.profileId, transactionId);
        if (lot && lot.kind !== 'event_reward') throw new CancelRefused('not_a_reward');
        const outcome = await w.cancelCredit(transactionId, 'event reward cancelled');
        if (!outcome.ok) throw new CancelRefused(outcome.why === 'not_a_credit' ? 'not_a_reward' : outcome.why);
        taken = outcome.taken;
        return outcome.entryId ?? transactionId;
      });
    } catch (error) {
      if (error instanceof CancelRefused) return { ok: false, why: error.why };
      // Merged away between the lookup and the lock (a race of moments): a retry finds the survivor.
      if (error instanceof AppError && error.code === 'NOT_FOUND') return { ok: false, why: 'member_not_found' };
      throw error;
    }
    return { ok: true, taken };
  }

  /** The subscriber of POST /push/custom events (the composition root lists it for tracking: src/services.ts). */
  trackingSubscriber(): TrackingSubscriber {
    return {
      name: EVENT_REWARDS_SUBSCRIBER,
      // Synchronous, inside the event batch: the cached rule codes answer (reward-codes.cache.ts).
      accepts: (event) => event.custom && this.codes.mayReward(event.shopId, event.event),
      handle: async (event) => {
        await this.rewardEvent(event);
      },
    };
  }

  /** Drops the cached rule codes: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.codes.clear();
  }

  /** Settles when the rule codes being loaded for the subscriber have (for tests). */
  ruleCodesSettled(): Promise<void> {
    return this.codes.settled();
  }

  /** One credit under the member's lock; 'merged' when the profile was merged away before the lock. */
  private async credit(event: StoredEvent, rule: rewardsRepo.RuleRow, profileId: number): Promise<RewardOutcome | 'merged'> {
    const settings = await this.deps.loyalty.getSettings(event.shopId);
    try {
      const posted = await this.deps.ledger.write(event.shopId, profileId, async (w) => {
        const terms = rewardTerms(settings, w.now);
        const id = await w.credit({
          amount: rule.amount,
          status: terms.status,
          confirmsAt: terms.confirmsAt,
          expiresAt: terms.expiresAt,
          kind: 'event_reward',
          reason: `custom event ${rule.event_code}`,
          orderId: null,
        });
        const row = {
          shop_id: event.shopId,
          profile_id: profileId,
          event_code: rule.event_code,
          transaction_id: id,
          event_id: event.id,
          created_at: w.now,
        };
        if (!(await rewardsRepo.insertRewarded(w.trx, row))) throw new AlreadyRewarded();
        return id;
      });
      return { rewarded: true, transactionId: posted.transactionId };
    } catch (error) {
      if (error instanceof AlreadyRewarded) return { rewarded: false, why: 'already_rewarded' };
      if (error instanceof AppError && error.code === 'NOT_FOUND') {
        // No longer a member: merged into another profile meanwhile (follow it), or left.
        const current = await this.deps.identity.currentProfileId(event.shopId, profileId);
        return current !== undefined && current !== profileId ? 'merged' : { rewarded: false, why: 'not_a_member' };
      }
      throw error;
    }
  }
}

function requireEventCode(code: string): void {
  if (!isEventCode(code)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Parameter \`event_code\` must be 1 to ${EVENT_CODE_MAX_LENGTH} characters of a-z, 0-9 and _.`,
      {
        field: 'event_code',
      },
    );
  }
}

function toRule(row: rewardsRepo.RuleRow): EventRewardRule {
  return { eventCode: row.event_code, amount: Number(row.amount) };
}
