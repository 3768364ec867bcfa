import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import type { Late } from '../../late.js';
import type { CatalogLandedListener, CatalogLanding } from '../catalog/index.js';
import { IDENTIFIER_KINDS } from '../identity/index.js';
import type { IdentityInput, IdentityService, MergeParticipant } from '../identity/index.js';
import * as repo from './product-subscriptions.repo.js';
import type {
  ProductAlert,
  ProductSubscription,
  SubscribeInput,
  SubscribeResult,
  SubscriptionKind,
  UnsubscribeInput,
  UnsubscribeResult,
} from './product-subscriptions.types.js';

export interface ProductSubscriptionsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly identity: Pick<IdentityService, 'resolveProfile' | 'findDevice' | 'findProfiles'>;
  readonly catalog: { currentGeneration(shopId: string): Promise<number> };
  /** Told of landings that wrote alerts (the chain triggers, built after this: src/services.ts). None when absent. */
  readonly alertListeners?: Late<readonly AlertsWrittenListener[]>;
}

export const MAX_ALERTS_LISTED = 1000;
/** Profiles one page of pending alerts holds at most. */
export const MAX_ALERT_PROFILES_PAGE = 1000;

/** Called in the swap transaction of a landing that wrote alerts (chains start from them). */
export type AlertsWrittenListener = (trx: Transaction<Database>, landing: CatalogLanding) => Promise<void>;

/**
 * Back-in-stock and price-drop subscriptions (interface.md "Product counters",
 * `triggers`; docs/catalog-read.md "Product subscriptions"). A customer subscribes to a
 * product of the served catalog; the catalog landing that makes it available, or
 * cheaper than the subscribed price, records one pending alert per subscription in the
 * swap transaction and the subscription fires once. Messaging turns alerts into
 * messages later.
 */
export class ProductSubscriptionsService {
  constructor(private readonly deps: ProductSubscriptionsDeps) {}

  /** The merged profile's subscriptions and alerts are the survivor's. */
  mergeParticipant(): MergeParticipant {
    return { name: 'product subscriptions', merge: (trx, shopId, fromId, intoId) => repo.moveProfileRows(trx, shopId, fromId, intoId) };
  }

  private get db() {
    return this.deps.db.db;
  }

  /**
   * Subscribes the person the identifiers describe (identity resolves, links or creates
   * the profile, as /push/custom does). Subscribing again re-arms the subscription with
   * the new price. price_drop without a price takes the product's current price.
   */
  async subscribe(input: SubscribeInput): Promise<SubscribeResult> {
    const { shopId, kind, itemId } = input;
    if (!(await this.knowsDevice(shopId, input.identity))) return { ok: false, reason: 'unknown_device' };
    const generation = await this.deps.catalog.currentGeneration(shopId);
    const offer = generation === 0 ? undefined : await repo.findCatalogOffer(this.db, shopId, generation, itemId);
    if (!offer) return { ok: false, reason: 'unknown_product' };
    let price: number | null = null;
    if (kind === 'price_drop') {
      price = input.price ?? offer.price;
      if (price === null) return { ok: false, reason: 'price_required' };
    }
    const now = this.deps.clock.now();
    const profileId = await this.db.transaction().execute(async (trx) => {
      const { profileId } = await this.deps.identity.resolveProfile(shopId, input.identity, trx);
      await repo.upsertSubscription(trx, { shopId, kind, itemId, profileId, price, now });
      return profileId;
    });
    return { ok: true, profileId };
  }

  /**
   * Cancels the person's active subscriptions of this kind to these items (every item
   * when none are given). Looks profiles up without creating any: an identifier nobody
   * holds has nothing to cancel. Every profile one of the identifiers leads to counts.
   */
  async unsubscribe(input: UnsubscribeInput): Promise<UnsubscribeResult> {
    if (!(await this.knowsDevice(input.shopId, input.identity))) return { ok: false, reason: 'unknown_device' };
    const profileIds = await this.findProfileIds(input.shopId, input.identity);
    const cancelled = await repo.cancelSubscriptions(
      this.db,
      input.shopId,
      input.kind,
      profileIds,
      [...new Set(input.itemIds)],
      this.deps.clock.now(),
    );
    return { ok: true, cancelled };
  }

  /**
   * A did, when given, must be one GET /init registered: an unknown one is 404 on every
   * endpoint but /init (contract-notes, "Secrets and errors"), so a subscription never
   * registers a device.
   */
  private async knowsDevice(shopId: string, identity: IdentityInput): Promise<boolean> {
    if (!identity.did) return true;
    return (await this.deps.identity.findDevice(shopId, identity.did)) !== undefined;
  }

  /** `triggers` of GET /products/counters: active subscriptions of the item, by kind. */
  async countActive(shopId: string, itemId: string): Promise<Record<SubscriptionKind, number>> {
    return (await repo.countActive(this.db, shopId, [itemId])).get(itemId)!;
  }

  /** countActive of many items of a shop, read together: every item asked is in the map. */
  countActiveOf(shopId: string, itemIds: readonly string[]): Promise<Map<string, Record<SubscriptionKind, number>>> {
    return repo.countActive(this.db, shopId, itemIds);
  }

  async listSubscriptions(shopId: string, profileId: number): Promise<ProductSubscription[]> {
    const rows = await repo.listSubscriptionsOf(this.db, shopId, profileId);
    return rows.map((row) => ({
      kind: row.kind,
      itemId: row.item_id,
      profileId: Number(row.profile_id),
      price: row.price === null ? null : Number(row.price),
      status: row.status,
      createdAt: Number(row.created_at),
      firedAt: row.fired_at === null ? null : Number(row.fired_at),
    }));
  }

  /** Alerts of a shop, oldest first (messaging reads the pending ones). */
  async listAlerts(shopId: string, options: { status?: string; limit?: number } = {}): Promise<ProductAlert[]> {
    const limit = Math.min(options.limit ?? MAX_ALERTS_LISTED, MAX_ALERTS_LISTED);
    const rows = await repo.listAlerts(this.db, shopId, { ...options, limit });
    return rows.map((row) => ({
      generation: Number(row.generation),
      kind: row.kind,
      itemId: row.item_id,
      profileId: Number(row.profile_id),
      oldPrice: row.old_price === null ? null : Number(row.old_price),
      newPrice: row.new_price === null ? null : Number(row.new_price),
      subscribedPrice: row.subscribed_price === null ? null : Number(row.subscribed_price),
      status: row.status,
      createdAt: Number(row.created_at),
    }));
  }

  /** Profiles with pending alerts of one landing and kind, ascending, after `afterProfileId`; at most `limit` (≤ 1000). */
  pendingAlertProfiles(
    shopId: string,
    generation: number,
    kind: SubscriptionKind,
    afterProfileId: number,
    limit: number,
  ): Promise<number[]> {
    const bounded = Math.min(Math.max(1, limit), MAX_ALERT_PROFILES_PAGE);
    return repo.findPendingAlertProfiles(this.db, { shopId, generation, kind, afterProfileId, limit: bounded });
  }

  /** The pending alerts of one landing and kind for these profiles (at most a page of them), by profile then item. */
  async pendingAlertsOf(
    shopId: string,
    generation: number,
    kind: SubscriptionKind,
    profileIds: readonly number[],
  ): Promise<{ profileId: number; itemId: string }[]> {
    const rows = await repo.findPendingAlertsOf(this.db, shopId, generation, kind, profileIds.slice(0, MAX_ALERT_PROFILES_PAGE));
    return rows.map((row) => ({ profileId: Number(row.profile_id), itemId: row.item_id }));
  }

  /** Marks these profiles' pending alerts of one landing and kind as handed to chains, in the caller's transaction. */
  markAlertsChained(
    trx: Transaction<Database>,
    shopId: string,
    generation: number,
    kind: SubscriptionKind,
    profileIds: readonly number[],
  ): Promise<void> {
    return repo.markAlertsChained(trx, shopId, generation, kind, profileIds);
  }

  /** Runs inside the swap transaction, before the old generation's rows are deleted. */
  /** The catalog's landed listener (src/services.ts lists it): a landing records the alerts it fires. */
  landedListener(): CatalogLandedListener {
    return {
      name: 'product-subscriptions',
      onLanded: async (trx: Transaction<Database>, landing: CatalogLanding) => {
        const written = await repo.insertLandingAlerts(trx, landing);
        if (written === 0) return;
        await repo.markFired(trx, landing.shopId, landing.generation, landing.now);
        for (const listener of this.deps.alertListeners?.get() ?? []) await listener(trx, landing);
      },
    };
  }

  private async findProfileIds(shopId: string, identity: IdentityInput): Promise<number[]> {
    const ids = new Set<number>();
    if (identity.did) {
      const device = await this.deps.identity.findDevice(shopId, identity.did);
      if (device) ids.add(device.profileId);
    }
    for (const kind of IDENTIFIER_KINDS) {
      const value = identity[kind];
      if (value === undefined || value === null) continue;
      for (const profile of await this.deps.identity.findProfiles(shopId, { [kind]: value })) ids.add(profile.id);
    }
    return [...ids];
  }
}
