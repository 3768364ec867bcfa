import { AppError } from '../../errors.js';
import type { IdentityInput, IdentityService } from '../identity/index.js';
import { isValidDeviceId } from '../identity/index.js';
import type { ProfileWithDevices } from '../identity/index.js';
import type { CustomerAttributes } from '../audience/index.js';
import type { ShopsService } from '../shops/index.js';
import type { TrackedItem } from '../tracking/index.js';
import type { ProfileLists, StoredEvent } from '../tracking/index.js';

/**
 * The read model behind the admin API's "Profiles (read)" and "Events (read)"
 * (admin-api.md): a profile as an operator sees it, assembled from the modules that own
 * its parts. It writes nothing and owns no table, so it sits above identity, tracking and
 * audience rather than inside one of them: identity cannot import tracking, which
 * already depends on it.
 *
 * Each part comes through a narrow port the view owns, so a module that fills a part
 * (audience's segments and attributes) is passed in where services are built and never
 * imports the view.
 */

/** What the view reads from tracking; TrackingService satisfies it. */
export interface TrackingReads {
  getLists(shopId: string, profileId: number): Promise<ProfileLists>;
  /** Newest first; limit 1..1000. */
  listEvents(shopId: string, did: string, limit: number): Promise<StoredEvent[]>;
  /** The shop's newest first, after `afterId` when given; limit 1..1000. */
  listRecentEvents(shopId: string, afterId: number | undefined, limit: number): Promise<StoredEvent[]>;
}

/** Segment membership of profiles; the segments module provides it. */
export interface ProfileSegmentSource {
  /** Segment ids of each given live profile, ascending; a profile in no segment may be left out of the map. */
  segmentIdsOf(shopId: string, profileIds: readonly number[]): Promise<ReadonlyMap<number, readonly number[]>>;
}

/** What imports and apps stored about a profile beyond its identifiers; the audience module provides it. */
export interface ProfileAttributeSource {
  getCustomerAttributes(shopId: string, profileId: number): Promise<CustomerAttributes | undefined>;
}

const NO_ATTRIBUTES: ProfileAttributeSource = {
  getCustomerAttributes: () => Promise.resolve(undefined),
};

/** Until the segments module exists, no profile is in a segment. */
export const NO_SEGMENTS: ProfileSegmentSource = {
  segmentIdsOf: () => Promise.resolve(new Map()),
};

/** The identifiers an operator may look profiles up by (raw; identity normalises them). */
export type ProfileLookup = Pick<IdentityInput, 'did' | 'email' | 'phone' | 'externalId' | 'loyaltyId' | 'telegramId'>;

/** The lookup criteria under their contract names, in the order messages list them. */
export const PROFILE_LOOKUP_PARAMETERS = ['email', 'phone', 'external_id', 'loyalty_id', 'telegram_id', 'did'] as const;

export interface ProfileView extends ProfileWithDevices {
  readonly segments: readonly number[];
  readonly cart: readonly TrackedItem[];
  readonly wish: readonly TrackedItem[];
  /** The record fields, subscription flags and push tokens stored for the profile. */
  readonly attributes: CustomerAttributes;
}

export const DEFAULT_EVENT_LIMIT = 50;
export const MAX_EVENT_LIMIT = 1000;
/** The live feed's page: what a person reads at a glance; the bound of `limit` there. */
export const RECENT_EVENT_LIMIT = 20;
export const MAX_RECENT_EVENT_LIMIT = 100;

export interface ProfileViewDeps {
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'findProfiles'>;
  readonly tracking: TrackingReads;
  readonly segments?: ProfileSegmentSource;
  readonly attributes?: ProfileAttributeSource;
}

export class ProfileViewService {
  private readonly segments: ProfileSegmentSource;
  private readonly attributes: ProfileAttributeSource;

  constructor(private readonly deps: ProfileViewDeps) {
    this.segments = deps.segments ?? NO_SEGMENTS;
    this.attributes = deps.attributes ?? NO_ATTRIBUTES;
  }

  /**
   * Live profiles of the shop matching every given identifier (AND), oldest first. A
   * merged profile is never shown: identity reads live profiles only, and its devices
   * and identifiers now belong to the survivor. Identifiers are normalised by identity
   * (an invalid one: AppError VALIDATION_FAILED naming it); an unknown shop: NOT_FOUND.
   */
  async findProfiles(shopId: string, lookup: ProfileLookup): Promise<ProfileView[]> {
    if (Object.values(lookup).every((value) => value === undefined || value === null)) {
      throw new AppError(
        'VALIDATION_FAILED',
        `At least one of ${PROFILE_LOOKUP_PARAMETERS.map((p) => `\`${p}\``).join(', ')} is required.`,
        { field: PROFILE_LOOKUP_PARAMETERS.join(',') },
      );
    }
    await this.deps.shops.requireShop(shopId);
    const profiles = await this.deps.identity.findProfiles(shopId, lookup);
    if (profiles.length === 0) return [];
    const segments = await this.segments.segmentIdsOf(
      shopId,
      profiles.map((p) => p.id),
    );
    return Promise.all(profiles.map((profile) => this.assemble(shopId, profile, segments.get(profile.id) ?? [])));
  }

  /** The view of one live profile the caller has read (the admin customer page). */
  async viewOf(shopId: string, profile: ProfileWithDevices): Promise<ProfileView> {
    const segments = await this.segments.segmentIdsOf(shopId, [profile.id]);
    return this.assemble(shopId, profile, segments.get(profile.id) ?? []);
  }

  private async assemble(shopId: string, profile: ProfileWithDevices, segments: readonly number[]): Promise<ProfileView> {
    const [{ cart, wish }, attributes] = await Promise.all([
      this.deps.tracking.getLists(shopId, profile.id),
      this.attributes.getCustomerAttributes(shopId, profile.id),
    ]);
    return { ...profile, segments, cart, wish, attributes: attributes ?? { fields: {}, pushTokens: [] } };
  }

  /**
   * The newest tracked events of a device, newest first. A well-formed did the shop does
   * not know simply has no events; an unknown shop: NOT_FOUND.
   */
  async listDeviceEvents(shopId: string, did: string, limit = DEFAULT_EVENT_LIMIT): Promise<StoredEvent[]> {
    if (!isValidDeviceId(did)) throw new AppError('VALIDATION_FAILED', 'Device ID is not valid.', { field: 'did' });
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENT_LIMIT) {
      throw new AppError('VALIDATION_FAILED', `Parameter \`limit\` must be an integer from 1 to ${MAX_EVENT_LIMIT}.`, {
        field: 'limit',
      });
    }
    await this.deps.shops.requireShop(shopId);
    return this.deps.tracking.listEvents(shopId, did, limit);
  }

  /**
   * The shop's newest events, newest first (the integration page's live feed): at most
   * `limit`, and only those after `afterId` when it is given. An unknown shop: NOT_FOUND.
   */
  async listRecentEvents(shopId: string, afterId: number | undefined, limit = RECENT_EVENT_LIMIT): Promise<StoredEvent[]> {
    await this.deps.shops.requireShop(shopId);
    return this.deps.tracking.listRecentEvents(shopId, afterId, limit);
  }
}
