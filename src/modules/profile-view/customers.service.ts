import { AppError } from '../../errors.js';
import type { IdentityService, Profile, ProfileDirectory, ProfileKey } from '../identity/index.js';
import type { LoyaltyService } from '../loyalty/index.js';
import type { HistoryService, SentKey, SentMessage } from '../messaging/index.js';
import type { ShopsService } from '../shops/index.js';
import type { CustomerHistoryService, StoredEvent, TimeKey, TrackedOrder } from '../tracking/index.js';
import type { ProfileView, ProfileViewService } from './profile-view.service.js';

/**
 * The admin UI's customers (docs/admin-lists.md): found by any identifier or listed
 * newest first, one customer's page in one call, and its history a page at a time. Reads
 * only, through the modules that own each part.
 */

export interface MergeEntry {
  readonly fromProfileId: number;
  readonly intoProfileId: number;
  readonly reason: string;
  readonly identifiers: Readonly<Record<string, unknown>>;
  readonly createdAt: number;
}

export interface CustomerLoyalty {
  readonly identifier: string;
  /** Minor units. */
  readonly balance: number;
  readonly pending: number;
}

export interface CustomerPage extends ProfileView {
  readonly merges: readonly MergeEntry[];
  /** Null when the customer is not a member of the loyalty programme. */
  readonly loyalty: CustomerLoyalty | null;
}

export interface Paged<T> {
  readonly items: readonly T[];
  readonly more: boolean;
}

export interface CustomersDeps {
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'getProfile' | 'listMerges' | 'profileIdsOf'>;
  readonly profileDirectory: Pick<ProfileDirectory, 'findByAnyIdentifier' | 'listNewest'>;
  readonly profileView: Pick<ProfileViewService, 'viewOf'>;
  readonly customerHistory: Pick<CustomerHistoryService, 'eventsPage' | 'ordersPage'>;
  readonly loyalty: Pick<LoyaltyService, 'viewMember'>;
  readonly messageHistory: Pick<HistoryService, 'sentPage'>;
}

export class CustomersService {
  constructor(private readonly deps: CustomersDeps) {}

  /** The live profiles holding `identifier` as any identifier, newest first (a handful at most). */
  async findByIdentifier(shopId: string, identifier: string): Promise<Profile[]> {
    await this.deps.shops.requireShop(shopId);
    return this.deps.profileDirectory.findByAnyIdentifier(shopId, identifier.trim());
  }

  async listNewest(shopId: string, before: ProfileKey | null, limit: number): Promise<Paged<Profile>> {
    await this.deps.shops.requireShop(shopId);
    const rows = await this.deps.profileDirectory.listNewest(shopId, before, limit + 1);
    return { items: rows.slice(0, limit), more: rows.length > limit };
  }

  /**
   * One customer: identifiers, devices, merges, properties, flags, push tokens, segments,
   * cart and wish list, loyalty balance. A merged id leads to its survivor; an unknown one
   * is NOT_FOUND.
   */
  async customer(shopId: string, profileId: number): Promise<CustomerPage> {
    const profile = await this.liveProfile(shopId, profileId);
    const [view, merges, loyalty] = await Promise.all([
      this.deps.profileView.viewOf(shopId, profile),
      this.deps.identity.listMerges(shopId, profile.id),
      this.loyaltyOf(shopId, profile),
    ]);
    return { ...view, merges, loyalty };
  }

  async events(shopId: string, profileId: number, before: TimeKey | null, limit: number): Promise<Paged<StoredEvent>> {
    const profile = await this.liveProfile(shopId, profileId);
    return this.deps.customerHistory.eventsPage(shopId, profile.id, before, limit);
  }

  async orders(shopId: string, profileId: number, before: TimeKey | null, limit: number): Promise<Paged<TrackedOrder>> {
    const profile = await this.liveProfile(shopId, profileId);
    return this.deps.customerHistory.ordersPage(shopId, profile.id, before, limit);
  }

  /** The messages sent to the customer, under its own id and those of the profiles merged into it; tests excluded. */
  async messages(
    shopId: string,
    profileId: number,
    after: SentKey | null,
    limit: number,
  ): Promise<Paged<SentMessage & { readonly seq: number }>> {
    const profile = await this.liveProfile(shopId, profileId);
    const ids = await this.deps.identity.profileIdsOf(shopId, profile.id);
    return this.deps.messageHistory.sentPage(shopId, ids, after, limit);
  }

  private async liveProfile(shopId: string, profileId: number) {
    await this.deps.shops.requireShop(shopId);
    const profile = await this.deps.identity.getProfile(shopId, profileId);
    if (!profile) throw new AppError('NOT_FOUND', 'Customer not found.');
    return profile;
  }

  /** The programme names a member by phone, else by loyalty id (docs/loyalty.md). */
  private async loyaltyOf(shopId: string, profile: Profile): Promise<CustomerLoyalty | null> {
    const identifier = profile.phone ?? profile.loyaltyId;
    if (identifier === null) return null;
    try {
      const member = await this.deps.loyalty.viewMember(shopId, identifier);
      if (member.profileId !== profile.id) return null;
      return { identifier: member.identifier, balance: member.balance, pending: member.pending };
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }
}
