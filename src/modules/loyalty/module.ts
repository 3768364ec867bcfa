import type { DashboardRollups } from '../dashboards/index.js';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import { Late } from '../../late.js';
import type { ProfilesService } from '../audience/index.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import type { TrackingSubscriber } from '../tracking/index.js';
import { BonusHolds } from './bonus-holds.js';
import { LoyaltyLedger, type LotsDueHook } from './loyalty-ledger.js';
import { LoyaltyLevelsService } from './loyalty-levels.service.js';
import { LoyaltyPublicService } from './loyalty-public.service.js';
import { LoyaltyReferralService } from './loyalty-referral.service.js';
import { LoyaltyReportsService } from './loyalty-reports.service.js';
import { LoyaltyRewardsService } from './loyalty-rewards.service.js';
import { LoyaltyUpkeepService } from './loyalty-upkeep.service.js';
import { LoyaltyService } from './loyalty.service.js';

export interface LoyaltyServices {
  /** The loyalty programme: settings, members, manual credits and debits (docs/loyalty.md). */
  readonly loyalty: LoyaltyService;
  /** The bonus ledger's writes: credits, draws, holds, cancels, refunds, expiry (loyalty-ledger.ts). */
  readonly loyaltyLedger: LoyaltyLedger;
  /** GET /loyalty/members/status and POST /loyalty/members/join (the SDK's public calls). */
  readonly loyaltyPublic: LoyaltyPublicService;
  /** The ledger's upkeep: the per-shop chain of sweeps that confirms and expires lots (docs/loyalty.md, "Upkeep"). */
  readonly loyaltyUpkeep: LoyaltyUpkeepService;
  /** The admin's reads across the ledger: the member list, a member's transactions, the liabilities. */
  readonly loyaltyReports: LoyaltyReportsService;
  /** Loyalty levels: the ladder, the purchases that count, members' levels and their daily recompute. */
  readonly loyaltyLevels: LoyaltyLevelsService;
  /** The referral programme: codes, referrals, the referrer's reward and the checkout's read of it. */
  readonly loyaltyReferrals: LoyaltyReferralService;
  /** Event rewards: the rules, the tracking subscriber that credits them, PATCH /loyalty/bonuses/cancel. */
  readonly loyaltyRewards: LoyaltyRewardsService;
}

export interface LoyaltyModule {
  readonly services: LoyaltyServices;
  readonly jobs: Pick<JobHandlers, 'loyalty.sweep' | 'loyalty.levels'>;
  /** The ledger's first: referrals, levels and rewards find the surviving profile a member by then. */
  readonly mergeParticipants: readonly MergeParticipant[];
  readonly trackingSubscribers: readonly TrackingSubscriber[];
  /** What an admin change drops (docs/settings-caches.md). */
  readonly settingsListeners: readonly (() => void)[];
  /** The member's bonuses an order holds (a checkout hold participant). */
  readonly bonusHolds: BonusHolds;
}

export function createLoyaltyModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly shops: ShopsService;
  readonly identity: IdentityService;
  /** POST /loyalty/members/join stores the profile's fields as GET /profile reads them. */
  readonly profiles: Pick<ProfilesService, 'setProfile'>;
  /** The dashboards' rollups: members, bonuses issued and spent, counted in the ledger's transactions. */
  readonly rollups?: DashboardRollups;
}): LoyaltyModule {
  const { db, clock, jobs, shops, identity } = deps;
  const rollups = deps.rollups && { rollups: deps.rollups };
  // Every credit of a lot that is pending or expires starts (or moves up) the shop's upkeep
  // chain, whichever service made it; a settings PUT resumes a chain that should run. The
  // upkeep writes through the ledger, so the ledger hears of it late.
  const lotsDue = new Late<LotsDueHook>('the loyalty upkeep');
  const ledger = new LoyaltyLedger({ db, clock, lotsDue, ...rollups });
  const upkeep = new LoyaltyUpkeepService({ db, clock, jobs, ledger });
  lotsDue.bind((shopId, dueAt) => upkeep.ensureScheduled(shopId, dueAt));
  const loyalty = new LoyaltyService({ db, clock, shops, identity, ledger, upkeep, ...rollups });
  const referrals = new LoyaltyReferralService({ db, clock, shops, identity, members: loyalty, ledger });
  const levels = new LoyaltyLevelsService({ db, clock, jobs, shops, identity, members: loyalty, purchases: referrals });
  const rewards = new LoyaltyRewardsService({ db, clock, shops, identity, ledger, loyalty });
  const services: LoyaltyServices = {
    loyalty,
    loyaltyLedger: ledger,
    loyaltyPublic: new LoyaltyPublicService({
      db,
      clock,
      shops,
      identity,
      profiles: deps.profiles,
      members: loyalty,
      levels,
      referrals,
      ...rollups,
    }),
    loyaltyUpkeep: upkeep,
    loyaltyReports: new LoyaltyReportsService({ db, clock, shops, members: loyalty }),
    loyaltyLevels: levels,
    loyaltyReferrals: referrals,
    loyaltyRewards: rewards,
  };
  return {
    services,
    jobs: {
      // The loyalty ledger's upkeep: confirms and expires lots, then schedules the shop's next link.
      // Its writes are conditional, so a redelivered link sweeps again and finishes the work.
      'loyalty.sweep': { handler: (payload, ctx) => upkeep.runLink(payload, { signal: ctx.signal }) },
      // Loyalty levels whose expiry is due, recomputed daily per shop; each run schedules the next (one chain per shop).
      'loyalty.levels': { handler: (payload) => levels.runLevelsJob(payload) },
    },
    mergeParticipants: [loyalty.mergeParticipant(), referrals.mergeParticipant(), levels.mergeParticipant(), rewards.mergeParticipant()],
    trackingSubscribers: [
      // Members' purchase events count toward their levels.
      levels.trackingSubscriber(),
      // Custom events with a rewarded code credit the member (docs/loyalty.md, "Event rewards").
      rewards.trackingSubscriber(),
    ],
    settingsListeners: [() => loyalty.forgetCachedSettings(), () => levels.forgetCachedSettings(), () => rewards.forgetCachedSettings()],
    bonusHolds: new BonusHolds(ledger),
  };
}
