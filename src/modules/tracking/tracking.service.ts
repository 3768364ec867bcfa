import type { DashboardRollups } from '../dashboards/index.js';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { fromFlag } from '../../db/dialect.js';
import { GroupCommitter, type GroupCommitStats } from '../../db/group-commit.js';
import { AppError } from '../../errors.js';
import type { Late } from '../../late.js';
import { TtlCache } from '../../ttl-cache.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import { isValidDeviceId, normalizeIdentifiers } from '../identity/index.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import { generateDeviceId } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import { COUNTER_WINDOWS, sumCounterWindows, windowBuckets } from './domain/counters.js';
import { draftCustomEvent, draftPushEvent, type EventDraft } from './domain/event-draft.js';
import type { TrackedItem } from './domain/items.js';
import { isWellFormedSessionId } from './domain/session.js';
import { storeEventBatch } from './tracking.batch.js';
import { attributeViews } from './view-attribution.js';
import { mergeTrackingData } from './tracking.merge.js';
import * as counters from './product-counters.repo.js';
import * as repo from './tracking.repo.js';
import type {
  CustomEventInput,
  CustomVariableValue,
  EventIdentifiers,
  InitInput,
  InitResult,
  ProductActivityCounters,
  ProfileLists,
  PushEventInput,
  StoredEvent,
  TrackedBatchListener,
  TrackedOrder,
  TrackingSubscriber,
  ViewAttributionSource,
} from './tracking.types.js';

export interface TrackingDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly identity: IdentityService;
  readonly shops: ShopsService;
  readonly jobs: JobQueue;
  /**
   * The modules built after tracking that hear its events, in the composition root's order
   * (src/services.ts): each stored event one accepts gets a `tracking.deliver` job in the
   * event's transaction. None when absent.
   */
  readonly subscribers?: Late<readonly TrackingSubscriber[]>;
  /**
   * Read once per batch before the subscribers decide (their `accepts` answers from
   * caches of admin settings): a change an admin made anywhere is seen by the next batch.
   */
  readonly settings?: { refresh(): Promise<void> };
  /** The dashboards' daily rollups, kept in each batch's transaction (docs/dashboards.md); absent: none kept. */
  readonly rollups?: Pick<DashboardRollups, 'trackedBatch'>;
  /** The modules that keep figures of each batch in its transaction (the recommendation blocks'), bound late. */
  readonly batchListeners?: Late<readonly TrackedBatchListener[]>;
  /** Asked of a product view that names no recommended_by (the stories' last click), bound late; none when absent. */
  readonly viewAttributions?: Late<readonly ViewAttributionSource[]>;
}

export const MAX_EVENTS_LIMIT = 1000;
/** Devices remembered as existing by one process (about 100 bytes each). */
const KNOWN_DEVICES_MAX = 100_000;
const KNOWN_DEVICES_TTL_MS = 60 * 60_000;
/** How often one process deletes a shop's counter buckets that have left every window. */
const COUNTER_PRUNE_INTERVAL_MS = 10 * 60_000;

/**
 * Sessions, the event log, carts and wish lists, orders and product counters
 * (interface.md POST /push, POST /push/custom; contract-notes.md GET /init).
 *
 * Every event goes through one group committer (db/group-commit.ts): a request's promise
 * resolves only after the transaction holding its event has committed, and concurrent
 * requests share that transaction (tracking.batch.ts stores a batch set-wise).
 */
export class TrackingService {
  private readonly committer: GroupCommitter<EventDraft, StoredEvent>;
  private readonly lastPrune = new Map<string, number>();
  private readonly knownDevices: TtlCache<string, true>;

  constructor(private readonly deps: TrackingDeps) {
    // A 200 means the event is on disk, not only committed (db/sqlite/wal-sync.ts on SQLite).
    this.committer = new GroupCommitter((drafts) => this.commitBatch(drafts), { durable: () => deps.db.durable() });
    this.knownDevices = new TtlCache({ max: KNOWN_DEVICES_MAX, ttlMs: KNOWN_DEVICES_TTL_MS, clock: deps.clock });
  }

  /** Moves the merged profile's events, lists and orders (tracking.merge.ts). */
  mergeParticipant(): MergeParticipant {
    return {
      name: 'tracking',
      merge: (trx, shopId, fromId, intoId) => mergeTrackingData(trx, shopId, fromId, intoId, this.deps.clock.now()),
    };
  }

  private get db() {
    return this.deps.db.db;
  }

  /**
   * GET /init: the device (created when no did is given, or when a well-formed did is
   * unknown: SDKs invent ids) and a session. The given sid is kept when it is well-formed
   * and its session is live and this device's, or unknown (then it opens); otherwise a
   * new session starts with a new sid. `beforeCreatingDevice` runs only when a device is
   * about to be created, and may throw to refuse it (the scope's device budget).
   */
  async initSession(input: InitInput, beforeCreatingDevice?: () => void): Promise<InitResult> {
    const device = await this.deps.identity.createDevice(input.shopId, input.did, undefined, beforeCreatingDevice);
    if (!device.created) await this.deps.identity.touchDevice(input.shopId, device.did);
    const sid = await this.openSession(input.shopId, device.did, input.sid);
    return { did: device.did, sid };
  }

  /**
   * POST /push: the did must exist (the route answers 404 otherwise, before the shop
   * state). Devices are never deleted, so a device once found is remembered (bounded);
   * an unknown one is looked up every time, as another process may have just issued it.
   */
  async deviceExists(shopId: string, did: string): Promise<boolean> {
    const key = `${shopId}/${did}`;
    if (this.knownDevices.get(key)) return true;
    const found = (await this.deps.identity.findDevice(shopId, did)) !== undefined;
    if (found) this.knownDevices.set(key, true);
    return found;
  }

  /** Resolves once the event is committed (group commit): a 200 means committed. */
  async recordPush(input: PushEventInput): Promise<StoredEvent> {
    if (!isValidDeviceId(input.did)) throw invalidDeviceId();
    checkIdentifiers(input.identifiers);
    const drafted = draftPushEvent(input, this.deps.clock.now());
    if (!drafted.ok) {
      const message =
        drafted.field === 'price' ? 'Parameter `items` holds a price too large to count.' : `Parameter \`${drafted.field}\` is too large.`;
      throw new AppError('VALIDATION_FAILED', message, { field: drafted.field === 'price' ? 'items' : drafted.field });
    }
    return this.committer.submit(drafted.draft);
  }

  /**
   * POST /push/custom: only codes created for the shop. With identifiers (and no did)
   * the profile is resolved or created through identity, in the event's transaction.
   * A did must be one GET /init registered (contract-notes, "Secrets and errors": an
   * unknown did is 404, as on /push); only /init registers a device.
   */
  async recordCustom(
    input: CustomEventInput,
  ): Promise<{ ok: true; event: StoredEvent } | { ok: false; reason: 'unknown_event_code' | 'unknown_device' }> {
    if (input.did !== undefined && !isValidDeviceId(input.did)) throw invalidDeviceId();
    const identifiers = checkIdentifiers(input.identifiers);
    if (input.did === undefined && identifiers === 0) {
      throw new AppError('VALIDATION_FAILED', 'Identifier is not valid.', { field: 'identifier' });
    }
    if (input.did !== undefined && !(await this.deviceExists(input.shopId, input.did))) {
      return { ok: false, reason: 'unknown_device' };
    }
    if (!(await this.deps.shops.hasCustomEvent(input.shopId, input.code))) {
      return { ok: false, reason: 'unknown_event_code' };
    }
    const event = await this.committer.submit(draftCustomEvent(input, this.deps.clock.now()));
    return { ok: true, event };
  }

  /** The device's events, newest first; `limit` is held to 1..1000. */
  async listEvents(shopId: string, did: string, limit: number): Promise<StoredEvent[]> {
    const capped = Math.min(MAX_EVENTS_LIMIT, Math.max(1, Math.trunc(limit) || 1));
    const rows = await repo.listEventsOfDevice(this.db, shopId, did, capped);
    return rows.map(toStoredEvent);
  }

  /** The shop's newest events, newest first, only those after `afterId` when given; `limit` is held to 1..1000. */
  async listRecentEvents(shopId: string, afterId: number | undefined, limit: number): Promise<StoredEvent[]> {
    const capped = Math.min(MAX_EVENTS_LIMIT, Math.max(1, Math.trunc(limit) || 1));
    const rows = await repo.listRecentEventsOfShop(this.db, shopId, afterId, capped);
    return rows.map(toStoredEvent);
  }

  /** The cart and wish list of the profile (a merged profile's id leads to its survivor). */
  async getLists(shopId: string, profileId: number): Promise<ProfileLists> {
    const liveId = await this.deps.identity.currentProfileId(shopId, profileId);
    const rows = liveId === undefined ? [] : await repo.findListsOfProfile(this.db, shopId, liveId);
    const items = (list: string): TrackedItem[] => {
      const row = rows.find((r) => r.list === list);
      return row ? (JSON.parse(row.items) as TrackedItem[]) : [];
    };
    return { cart: items('cart'), wish: items('wish') };
  }

  /** The orders of the profile from purchase events, oldest first. */
  async listOrders(shopId: string, profileId: number): Promise<TrackedOrder[]> {
    const liveId = await this.deps.identity.currentProfileId(shopId, profileId);
    const rows = liveId === undefined ? [] : await repo.listOrdersOfProfile(this.db, shopId, liveId);
    return rows.map(toTrackedOrder);
  }

  /** Whether the profile (a merged profile's id leads to its survivor) has an order from a purchase event. */
  async hasOrders(shopId: string, profileId: number): Promise<boolean> {
    const liveId = await this.deps.identity.currentProfileId(shopId, profileId);
    return liveId !== undefined && (await repo.hasOrderOfProfile(this.db, shopId, liveId));
  }

  /**
   * The profile's newest orders first (a merged profile's id leads to its survivor),
   * those created at `since` (ms) or later when given; `limit` is held to 1..1000.
   */
  async listRecentOrders(
    shopId: string,
    profileId: number,
    options: { readonly since?: number; readonly limit: number },
  ): Promise<TrackedOrder[]> {
    const liveId = await this.deps.identity.currentProfileId(shopId, profileId);
    if (liveId === undefined) return [];
    const limit = Math.min(MAX_EVENTS_LIMIT, Math.max(1, Math.trunc(options.limit) || 1));
    const rows = await repo.listRecentOrdersOfProfile(this.db, shopId, liveId, { since: options.since, limit });
    return rows.map(toTrackedOrder);
  }

  /** now = the last 30 minutes, daily = the last 24 hours, from the stored buckets (domain/counters.ts). */
  async productCounters(shopId: string, itemId: string): Promise<ProductActivityCounters> {
    return (await this.productCountersOf(shopId, [itemId])).get(itemId)!;
  }

  /** productCounters of many items of a shop, read together: every item asked is in the map. */
  async productCountersOf(shopId: string, itemIds: readonly string[]): Promise<Map<string, ProductActivityCounters>> {
    const now = this.deps.clock.now();
    const lists = COUNTER_WINDOWS.map((w) => ({ granularity: w.granularity, buckets: windowBuckets(w, now) }));
    const rowsByItem = new Map<string, counters.CounterRow[]>(itemIds.map((id) => [id, []]));
    for (const row of await counters.findCounters(this.db, shopId, itemIds, lists)) rowsByItem.get(row.item_id)?.push(row);
    return new Map([...rowsByItem].map(([id, rows]) => [id, sumCounterWindows(rows, now)]));
  }

  private get subscribers(): readonly TrackingSubscriber[] {
    return this.deps.subscribers?.get() ?? [];
  }

  /** The `tracking.deliver` job: hands one stored event to one subscriber. */
  async deliver(job: JobMap['tracking.deliver']): Promise<void> {
    const subscriber = this.subscribers.find((s) => s.name === job.subscriber);
    if (!subscriber) throw new Error(`No tracking subscriber named "${job.subscriber}" is registered in this process`);
    const row = await repo.findEvent(this.db, job.shopId, job.eventId);
    if (!row) throw new Error(`Event ${job.eventId} of shop ${job.shopId} does not exist`);
    await subscriber.handle(toStoredEvent(row));
  }

  /** Graceful shutdown: stop taking new events, commit what is pending. */
  drain(): Promise<void> {
    return this.committer.drain();
  }

  /** How events were committed so far (batches, sizes, isolated failures): for metrics and tests. */
  commitStats(): GroupCommitStats {
    return this.committer.snapshot();
  }

  private async commitBatch(drafts: readonly EventDraft[]): Promise<StoredEvent[]> {
    if (this.subscribers.length > 0) await this.deps.settings?.refresh();
    const now = this.deps.clock.now();
    const pruneShops = new Set<string>();
    for (const { shopId } of drafts) {
      if (pruneShops.has(shopId) || now - (this.lastPrune.get(shopId) ?? -Infinity) < COUNTER_PRUNE_INTERVAL_MS) continue;
      pruneShops.add(shopId);
      this.lastPrune.set(shopId, now);
    }
    const context = {
      identity: this.deps.identity,
      jobs: this.deps.jobs,
      subscribers: this.subscribers,
      pruneShops,
      now,
      ...(this.deps.rollups && { rollups: this.deps.rollups }),
      listeners: this.deps.batchListeners?.get() ?? [],
    };
    return this.db
      .transaction()
      .execute(async (trx) =>
        storeEventBatch(trx, await attributeViews(trx, drafts, this.deps.viewAttributions?.get() ?? [], now), context),
      );
  }

  private async openSession(shopId: string, did: string, sid: string | undefined): Promise<string> {
    const now = this.deps.clock.now();
    const session = (id: string): repo.SessionRow => ({
      shop_id: shopId,
      sid: id,
      did,
      started_at: now,
      last_activity_at: now,
    });
    if (sid !== undefined && isWellFormedSessionId(sid)) {
      if (await repo.touchLiveSession(this.db, shopId, sid, did, now)) return sid;
      // A sid the server never issued opens a session; an ended one (or another device's) does not.
      if (await repo.insertSession(this.db, session(sid))) return sid;
    }
    for (;;) {
      const fresh = generateDeviceId();
      if (await repo.insertSession(this.db, session(fresh))) return fresh;
    }
  }
}

function invalidDeviceId(): AppError {
  return new AppError('VALIDATION_FAILED', 'Device ID is not valid.', { field: 'did' });
}

/**
 * Checks the identifiers as identity will (same rules and message), before the event
 * joins a batch: a bad one fails its request at once instead of failing a shared
 * transaction. Returns how many are given.
 */
function checkIdentifiers(identifiers: EventIdentifiers | undefined): number {
  if (!identifiers) return 0;
  const normalized = normalizeIdentifiers({
    email: identifiers.email,
    phone: identifiers.phone,
    externalId: identifiers.external_id,
    loyaltyId: identifiers.loyalty_id,
    telegramId: identifiers.telegram_id,
  });
  if (!normalized.ok) {
    throw new AppError('VALIDATION_FAILED', `Parameter \`${normalized.field}\` is not valid.`, {
      field: normalized.field,
      reason: normalized.reason,
    });
  }
  return Object.keys(normalized.value).length;
}

export function toStoredEvent(row: repo.EventRow): StoredEvent {
  return {
    id: row.id,
    shopId: row.shop_id,
    profileId: row.profile_id,
    did: row.did,
    event: row.event,
    custom: fromFlag(row.custom),
    time: row.time,
    items: JSON.parse(row.items) as TrackedItem[],
    params: JSON.parse(row.params) as Record<string, unknown>,
  };
}

export function toTrackedOrder(row: repo.OrderRow): TrackedOrder {
  return {
    id: row.id,
    orderId: row.order_id,
    eventId: row.event_id,
    profileId: row.profile_id,
    did: row.did,
    items: JSON.parse(row.items) as TrackedItem[],
    deliveryType: row.delivery_type,
    paymentType: row.payment_type,
    promocode: row.promocode,
    itemsTotal: row.items_total,
    orderPrice: row.order_price,
    createdAt: row.created_at,
    orderCash: row.order_cash,
    orderBonuses: row.order_bonuses,
    orderDelivery: row.order_delivery,
    orderDiscount: row.order_discount,
    channel: row.channel,
    taxFree: row.tax_free === null ? null : fromFlag(row.tax_free),
    giftPackage: row.gift_package === null ? null : fromFlag(row.gift_package),
    deliveryAddress: row.delivery_address,
    custom: row.custom === null ? null : (JSON.parse(row.custom) as Record<string, CustomVariableValue>),
    stream: row.stream,
  };
}
