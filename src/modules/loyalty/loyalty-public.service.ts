import type { DbHandle } from '../../db/create-db.js';
import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { ProfilesService } from '../audience/index.js';
import type { IdentityService } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import { dateInTimezone, type Shop } from '../shops/index.js';
import {
  PUBLIC_MEMBER_NOT_FOUND,
  type PublicCustomer,
  type PublicLevel,
  type PublicMemberStatus,
  type StatusQuery,
} from './domain/member-status.js';
import type { LoyaltyRollups } from './loyalty-ledger.js';
import { addMember } from './member-join.js';
import * as repo from './loyalty.repo.js';
import type { LoyaltyLevelsService } from './loyalty-levels.service.js';
import { referrerRefused, selfReferral, type LoyaltyReferralService } from './loyalty-referral.service.js';
import type { LoyaltyService } from './loyalty.service.js';

export interface LoyaltyPublicDeps {
  /** The dashboards' rollups: a member who joins is counted in the same transaction. */
  readonly rollups?: LoyaltyRollups;
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'resolveProfile' | 'findProfiles' | 'getProfile' | 'requireDevice'>;
  /** Stores the names a public join gives (as POST /profile/set does). */
  readonly profiles: Pick<ProfilesService, 'setProfile'>;
  /** The ledger's reading of a public identifier (phone, else loyalty_id). */
  readonly members: Pick<LoyaltyService, 'findMember'>;
  /** A member's level (docs/loyalty.md "Levels"); without it, `level` is always null. */
  readonly levels?: Pick<LoyaltyLevelsService, 'levelOf'>;
  /** The referral programme, for a join that names a `referrer_code`. */
  readonly referrals?: Pick<LoyaltyReferralService, 'findReferrer' | 'namesProfile' | 'attachReferrer'>;
}

/**
 * The loyalty calls of the mobile SDK, with the public key only (docs/loyalty.md "Public
 * calls"): whether a customer is a member, and joining. Memberships are the ledger's
 * (loyalty.service.ts); this service only finds and makes them.
 */
export class LoyaltyPublicService {
  constructor(private readonly deps: LoyaltyPublicDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /**
   * GET /loyalty/members/status: an `identifier` (phone, else loyalty_id), or else a
   * named phone, loyalty_id or email (the first given, in that order), that names no
   * member is NOT_FOUND; with none of them, the device's customer answers `member: false`
   * when not a member. A given `did` must be a device of the shop (NOT_FOUND otherwise).
   */
  async publicStatus(shopId: string, query: StatusQuery): Promise<PublicMemberStatus> {
    const shop = await this.deps.shops.requireShop(shopId);
    const device = query.did === undefined ? undefined : await this.deps.identity.requireDevice(shopId, query.did);
    const notFound = () => new AppError('NOT_FOUND', PUBLIC_MEMBER_NOT_FOUND);
    if (query.identifier !== undefined) {
      const member = await this.deps.members.findMember(shopId, query.identifier).catch((error: unknown) => {
        throw error instanceof AppError && error.code === 'NOT_FOUND' ? notFound() : error;
      });
      return { member: true, level: await this.levelOf(shop, member.profileId) };
    }
    const { phone, loyaltyId, email } = query.identifiers;
    const named = phone !== undefined ? { phone } : loyaltyId !== undefined ? { loyaltyId } : email !== undefined ? { email } : undefined;
    if (named) {
      const [profile] = await this.deps.identity.findProfiles(shopId, named);
      if (!profile || !(await repo.isMember(this.db, shopId, profile.id))) throw notFound();
      return { member: true, level: await this.levelOf(shop, profile.id) };
    }
    if (!device) throw new AppError('VALIDATION_FAILED', 'Parameter `did` or `identifier` is required.', { field: 'did' });
    const member = await repo.isMember(this.db, shopId, device.profileId);
    return { member, level: member ? await this.levelOf(shop, device.profileId) : null };
  }

  /**
   * POST /loyalty/members/join: links the identifiers to the device (identity's rules),
   * stores the names given (as POST /profile/set) and makes the resolved profile a
   * member; joining twice answers the same. A member needs a phone or a loyalty_id: when
   * neither is given nor already on the device's profile, 422 before anything is written.
   */
  async publicJoin(shopId: string, customer: PublicCustomer): Promise<PublicMemberStatus> {
    const shop = await this.deps.shops.requireShop(shopId);
    const { did, identifiers, names } = customer;
    const device = did === undefined ? undefined : await this.deps.identity.requireDevice(shopId, did);
    if (identifiers.phone === undefined && identifiers.loyaltyId === undefined) {
      const current = device && (await this.deps.identity.getProfile(shopId, device.profileId));
      if (!current?.phone && !current?.loyaltyId) {
        throw new AppError('VALIDATION_FAILED', 'Parameter `phone` or `loyalty_id` is required.', { field: 'phone' });
      }
    }
    const referrerId = await this.checkReferrer(shopId, customer, device?.profileId);
    if (names && Object.keys(names).length > 0) {
      // Links the identifiers and stores the names in one transaction; the resolve below then reads the same profile.
      await this.deps.profiles.setProfile(shop, { ...(did !== undefined && { did }), identifiers }, names);
    }
    const resolved = await this.deps.identity.resolveProfile(shopId, { ...identifiers, ...(did !== undefined && { did }) });
    const profile = await this.deps.identity.getProfile(shopId, resolved.profileId);
    if (!profile || (!profile.phone && !profile.loyaltyId)) {
      // Identity kept the phone (or loyalty_id) with another customer than the other identifiers name.
      const apart = resolved.ignored.find((i) => i.kind === 'phone' || i.kind === 'loyaltyId');
      if (apart)
        throw new AppError('CONFLICT', `Parameter \`${apart.kind === 'phone' ? 'phone' : 'loyalty_id'}\` belongs to another customer.`);
      throw new AppError('CONFLICT', 'The profile was changed by concurrent requests; try again.');
    }
    if (referrerId !== undefined && profile.id === referrerId) throw selfReferral('Parameter');
    await addMember(this.db, this.deps.rollups, shopId, profile.id, this.deps.clock.now());
    await this.deps.db.durable();
    if (referrerId !== undefined) await this.deps.referrals?.attachReferrer(shopId, profile.id, referrerId);
    return { member: true, level: await this.levelOf(shop, profile.id) };
  }

  /**
   * The member a join's `referrer_code` names, checked before anything is written: an
   * unknown code (or the programme off) and a customer naming its own code are 422.
   */
  private async checkReferrer(shopId: string, customer: PublicCustomer, deviceProfileId: number | undefined): Promise<number | undefined> {
    const code = customer.referrerCode;
    if (code === undefined || !this.deps.referrals) return undefined;
    const referrer = await this.deps.referrals.findReferrer(shopId, code);
    if (!referrer.ok) throw referrerRefused('Parameter', referrer.why);
    const { phone, email, loyaltyId, externalId } = customer.identifiers;
    const own =
      deviceProfileId === referrer.profileId ||
      (await this.deps.referrals.namesProfile(shopId, { phone, email, loyaltyId, externalId }, referrer.profileId));
    if (own) throw selfReferral('Parameter');
    return referrer.profileId;
  }

  /** The member's level as the SDK reads it: `expiration_date` is the day it drops, in the shop's timezone. */
  private async levelOf(shop: Shop, profileId: number): Promise<PublicLevel | null> {
    const level = await this.deps.levels?.levelOf(shop.shopId, profileId);
    if (!level) return null;
    const expirationDate = level.expiresAt === null ? null : dateInTimezone(level.expiresAt, shop.timezone);
    return { name: level.name, code: level.code, expiration_date: expirationDate };
  }
}
