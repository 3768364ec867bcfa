/**
 * What the loyalty module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export { MAX_AMOUNT_MINOR, toUnits } from './domain/amount.js';
export { DAY_MS } from './domain/levels.js';
export { PUBLIC_MEMBER_NOT_FOUND } from './domain/member-status.js';
export type { LoyaltySettings } from './domain/settings.js';
export type { LoyaltyLedger } from './loyalty-ledger.js';
export type { LoyaltyLevelsService } from './loyalty-levels.service.js';
export type { LoyaltyReferralService } from './loyalty-referral.service.js';
export type { FoundMember, LoyaltyService } from './loyalty.service.js';
export { RewardCodesCache } from './reward-codes.cache.js';
