import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { IdentityInput, IdentityService } from '../identity/index.js';
import type { ProfileWithDevices } from '../identity/index.js';
import { dateInTimezone, type Shop } from '../shops/index.js';
import { toAttributesRow } from './audience.import-run.js';
import * as repo from './audience.repo.js';
import type { AudienceService } from './audience.service.js';
import type { CustomerAttributes } from './audience.types.js';
import type { CustomPropertiesService } from './custom-properties.service.js';
import { checkProfileUpdate } from './domain/profile-update.js';
import type { AudienceFields, PushPlatform, SubscriptionFlag } from './domain/record.js';
import { segmentNotFound, type SegmentsService } from './segments.service.js';
import * as segmentsRepo from './segments.repo.js';

/** The contract's sentence for a well-formed device id the shop does not know (contract-notes, "Secrets and errors"). */
export const PROFILE_NOT_FOUND = 'Profile not found';

/** The shop as these use cases need it: its id and its time zone (the latest birthday is today there). */
export type ShopRef = Pick<Shop, 'shopId' | 'timezone'>;

/**
 * Whose profile a request means: its device, its identifiers, or both. Identifiers
 * without a device are the server-to-server form, which a scope accepts only with the
 * shop's secret (the scope checks it).
 */
export interface CustomerRef {
  readonly did?: string;
  readonly identifiers: Omit<IdentityInput, 'did'>;
}

/** A profile as the app reads it back (GET /profile). */
export interface ProfileSnapshot {
  readonly profile: ProfileWithDevices;
  readonly attributes: CustomerAttributes;
  /** The stored flag, or an order of the customer: a purchase event's, or a completed loyalty checkout's. */
  readonly boughtSomething: boolean;
}

type Deps = {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly identity: IdentityService;
  readonly properties: Pick<CustomPropertiesService, 'propertyTypes'>;
  readonly audience: Pick<AudienceService, 'getCustomerAttributes'>;
  /** Members are added through it, so that its entry listeners hear them. */
  readonly segments: Pick<SegmentsService, 'addMembers'>;
  /** The orders bought_something is derived from (tracked orders move with merges; checkout orders stay under their ids). */
  readonly orders: { hasOrders(shopId: string, profileId: number): Promise<boolean> };
  readonly checkoutOrders: { hasCompletedOrder(shopId: string, profileIds: readonly number[]): Promise<boolean> };
};

/**
 * A customer's profile as the shop's app sets and reads it (docs/profiles.md): fields of
 * the audience record, custom properties, subscription flags, push tokens and static
 * segments. Identifiers go through identity, so an app that sets an email links its
 * device to that customer exactly as a tracked event would; fields are stored where the
 * audience import stores them, so both writers mean the same thing.
 */
export class ProfilesService {
  constructor(private readonly deps: Deps) {}

  private get db() {
    return this.deps.db.db;
  }

  /**
   * POST /profile/set: links the identifiers to the device's profile (or, for a caller
   * with the shop's secret and no device, to the customer holding them, created when
   * nobody does) and stores the fields, in one transaction. An unknown device:
   * NOT_FOUND; any bad value: VALIDATION_FAILED naming it, and nothing is stored. Keys
   * that are neither a field nor a custom property of the shop are left out and
   * returned (domain/profile-update.ts).
   */
  async setProfile(
    shop: ShopRef,
    customer: CustomerRef,
    input: Readonly<Record<string, unknown>>,
  ): Promise<{ readonly ignored: readonly string[] }> {
    if (customer.did !== undefined) await this.requireDevice(shop.shopId, customer.did);
    const check = checkProfileUpdate(input, {
      properties: await this.deps.properties.propertyTypes(shop.shopId),
      today: dateInTimezone(this.deps.clock.now(), shop.timezone),
    });
    if (!check.ok) throw new AppError('VALIDATION_FAILED', check.message, { field: check.field });
    const { identifiers, fields, properties, pushToken } = check.update;
    await this.db.transaction().execute(async (trx) => {
      const who = { ...identityInput(customer), ...identifiers };
      const { profileId } = await this.deps.identity.resolveProfile(shop.shopId, who, trx);
      await this.deps.identity.setProperties(shop.shopId, profileId, properties, trx);
      await this.storeFields(trx, shop.shopId, profileId, fields);
      if (pushToken) await this.storeToken(trx, shop.shopId, profileId, pushToken.token, pushToken.platform);
    });
    await this.deps.db.durable();
    return { ignored: check.ignored };
  }

  /** GET /profile: the customer's profile; NOT_FOUND for an unknown device or nobody holding the identifiers. */
  async getProfile(shopId: string, customer: CustomerRef): Promise<ProfileSnapshot> {
    const profileId = await this.findProfileId(shopId, customer);
    const profile = profileId === undefined ? undefined : await this.deps.identity.getProfile(shopId, profileId);
    const attributes = profile ? await this.deps.audience.getCustomerAttributes(shopId, profile.id) : undefined;
    if (!profile || !attributes) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
    return {
      profile,
      attributes,
      boughtSomething: attributes.fields.bought_something === true || (await this.hasBought(shopId, profile.id)),
    };
  }

  /** Any order of the customer, whichever of its devices or merged profiles made it. */
  private async hasBought(shopId: string, profileId: number): Promise<boolean> {
    if (await this.deps.orders.hasOrders(shopId, profileId)) return true;
    return this.deps.checkoutOrders.hasCompletedOrder(shopId, await this.deps.identity.profileIdsOf(shopId, profileId));
  }

  /**
   * POST /mobile_push_tokens: the token belongs to the device's profile (a token that
   * was another profile's moves here: one token, one app install). The SDK sends it on
   * every start, so a token already stored as it is costs one read and no write.
   */
  async registerPushToken(shopId: string, did: string, token: string, platform: PushPlatform): Promise<void> {
    const profileId = await this.requireDevice(shopId, did);
    const stored = await repo.findPushToken(this.db, shopId, token);
    if (stored?.profile_id === profileId && stored.platform === platform) return;
    await this.storeToken(this.db, shopId, profileId, token, platform);
    await this.deps.db.durable();
  }

  /** POST /subscriptions/manage: sets the given subscription flags of the customer (created when only identifiers name them). */
  async setSubscriptions(shopId: string, customer: CustomerRef, flags: Partial<Record<SubscriptionFlag, boolean>>): Promise<void> {
    if (Object.keys(flags).length === 0) return;
    await this.writeForCustomer(shopId, customer, (trx, profileId) => this.storeFields(trx, shopId, profileId, flags));
  }

  /** POST /segments/add: the customer becomes a member of the static segment (once). */
  async addToSegment(shopId: string, customer: CustomerRef, segmentId: number): Promise<void> {
    await this.requireSegment(shopId, segmentId);
    await this.writeForCustomer(shopId, customer, async (trx, profileId) => {
      // Checked again inside: a segment deleted meanwhile must not get a member.
      if (!(await segmentsRepo.findSegment(trx, shopId, segmentId))) throw segmentNotFound(segmentId);
      await this.deps.segments.addMembers(trx, shopId, segmentId, [profileId], this.deps.clock.now());
    });
  }

  /** POST /segments/remove: the customer is no member of the segment afterwards (nobody known: nothing to do). */
  async removeFromSegment(shopId: string, customer: CustomerRef, segmentId: number): Promise<void> {
    await this.requireSegment(shopId, segmentId);
    const profileId = await this.linkOrFind(shopId, customer);
    if (profileId === undefined) return;
    await segmentsRepo.removeMember(this.db, shopId, segmentId, profileId);
    await this.deps.db.durable();
  }

  /** GET /segments/get: the ids of the customer's segments, ascending (nobody known: none). */
  async segmentsOf(shopId: string, customer: CustomerRef): Promise<number[]> {
    const profileId = await this.linkOrFind(shopId, customer);
    if (profileId === undefined) return [];
    const rows = await segmentsRepo.findMemberships(this.db, shopId, [profileId]);
    return rows.map((row) => row.segment_id);
  }

  /**
   * The profile a write is for, in the write's transaction: a device with identifiers
   * links them (a device switches to the customer holding them, docs/identity.md); an
   * identifier nobody holds yet creates the profile, as an import would.
   */
  private async writeForCustomer(
    shopId: string,
    customer: CustomerRef,
    write: (trx: Transaction<Database>, profileId: number) => Promise<void>,
  ): Promise<void> {
    if (customer.did !== undefined) await this.requireDevice(shopId, customer.did);
    await this.db.transaction().execute(async (trx) => {
      const { profileId } = await this.deps.identity.resolveProfile(shopId, identityInput(customer), trx);
      await write(trx, profileId);
    });
    await this.deps.db.durable();
  }

  /** A device (with its identifiers linked to it), or the live profile holding every identifier; undefined for nobody. */
  private async linkOrFind(shopId: string, customer: CustomerRef): Promise<number | undefined> {
    if (customer.did === undefined) return this.findProfileId(shopId, customer);
    await this.requireDevice(shopId, customer.did);
    return (await this.deps.identity.resolveProfile(shopId, identityInput(customer))).profileId;
  }

  /** Reads only: the device's profile, or the live profile holding every given identifier. */
  private async findProfileId(shopId: string, customer: CustomerRef): Promise<number | undefined> {
    if (customer.did !== undefined) return this.requireDevice(shopId, customer.did);
    const [profile] = await this.deps.identity.findProfiles(shopId, customer.identifiers);
    return profile?.id;
  }

  /** The device's profile; NOT_FOUND when the shop never registered the device (only /init registers one). */
  private async requireDevice(shopId: string, did: string): Promise<number> {
    return (await this.deps.identity.requireDevice(shopId, did)).profileId;
  }

  private async requireSegment(shopId: string, segmentId: number): Promise<void> {
    if (!Number.isSafeInteger(segmentId) || !(await segmentsRepo.findSegment(this.db, shopId, segmentId))) {
      throw segmentNotFound(segmentId);
    }
  }

  /** Upserts the given fields; a field not given keeps its stored value (the import's rule). */
  private async storeFields(db: repo.Executor, shopId: string, profileId: number, fields: AudienceFields): Promise<void> {
    if (Object.keys(fields).length === 0) return;
    await repo.upsertAttributes(db, [toAttributesRow(shopId, profileId, fields, this.deps.clock.now())]);
  }

  private async storeToken(db: repo.Executor, shopId: string, profileId: number, token: string, platform: PushPlatform): Promise<void> {
    const now = this.deps.clock.now();
    await repo.upsertPushTokens(db, [{ shop_id: shopId, token, platform, profile_id: profileId, created_at: now, updated_at: now }]);
  }
}

function identityInput(customer: CustomerRef): IdentityInput {
  return { ...customer.identifiers, ...(customer.did !== undefined && { did: customer.did }) };
}
