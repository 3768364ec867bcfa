import type { Transaction } from 'kysely';
import { toFlag } from '../../db/dialect.js';
import type { Database } from '../../db/types.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { DashboardRollups } from '../dashboards/index.js';
import type { IdentityInput, IdentityService } from '../identity/index.js';
import { aggregateCounterHits, COUNTER_WINDOWS, type CounterHit } from './domain/counters.js';
import type { EventDraft } from './domain/event-draft.js';
import type { TrackedItem } from './domain/items.js';
import { applyListOperations, type ListName, type ListOperation } from './domain/lists.js';
import * as counters from './product-counters.repo.js';
import * as repo from './tracking.repo.js';
import type { EventIdentifiers, StoredEvent, TrackedBatchListener, TrackingSubscriber } from './tracking.types.js';

/**
 * Stores a batch of events in the caller's transaction, SET-WISE: a fixed number of
 * statements per batch whatever its size (on PostgreSQL each statement is a network round
 * trip, so per-event statements would cap throughput). In order:
 *
 * 1. reserve the event and order ids of every shop (one upsert);
 * 2. resolve the profiles of events that carry identifiers, or no device, through the
 *    identity service (per event: the rarer path), then read the profiles of every other
 *    device at once. Always inside the transaction: merges move devices, so no cache
 *    outlives it;
 * 3. one multi-row insert of the events;
 * 4. one read of the carts and wish lists the batch changes, its operations applied in
 *    order in memory, one multi-row upsert;
 * 5. one multi-row insert of orders (an order_id that exists is skipped), then the
 *    dashboards' rollups of the events and new orders (dashboards/rollups.ts: two upserts)
 *    and the batch listeners' figures (the recommendation blocks');
 * 6. one multi-row upsert of product counters, pre-aggregated per (item, bucket);
 * 7. one multi-row upsert of sessions, and one update of device activity per shop (to
 *    the minute);
 * 8. with subscribers, a `tracking.deliver` job per accepted event (the outbox).
 */

/** Events advance a device's last_seen_at to the minute: more often would write every device row on every batch. */
export const DEVICE_SEEN_PRECISION_MS = 60_000;

export interface BatchContext {
  readonly identity: IdentityService;
  readonly jobs: JobQueue;
  readonly subscribers: readonly TrackingSubscriber[];
  /** Shops whose counter buckets that have left every window are deleted in this batch. */
  readonly pruneShops: ReadonlySet<string>;
  readonly now: number;
  /** The dashboards' daily rollups, added to in the batch's transaction; absent: none kept. */
  readonly rollups?: Pick<DashboardRollups, 'trackedBatch'>;
  /** Figures kept of the batch in its transaction, in this order. */
  readonly listeners?: readonly TrackedBatchListener[];
}

export async function storeEventBatch(
  trx: Transaction<Database>,
  drafts: readonly EventDraft[],
  ctx: BatchContext,
): Promise<StoredEvent[]> {
  const orderIndexes = ordersToCreate(drafts);
  const ids = await reserveIds(trx, drafts, orderIndexes);
  const { profileIds, lastSeen } = await resolveProfiles(trx, drafts, ctx.identity);

  const events: StoredEvent[] = drafts.map((d, i) => ({
    id: ids.next(d.shopId, 'events'),
    shopId: d.shopId,
    profileId: profileIds[i] as number,
    did: d.did,
    event: d.event,
    custom: d.custom,
    time: d.time,
    items: d.items,
    params: d.params,
  }));

  await repo.insertEvents(
    trx,
    drafts.map((d, i) => {
      const e = events[i] as StoredEvent;
      return {
        shop_id: d.shopId,
        id: e.id,
        profile_id: e.profileId,
        did: d.did,
        sid: d.sid,
        event: d.event,
        custom: d.custom ? 1 : 0,
        time: d.time,
        items: JSON.stringify(d.items),
        params: JSON.stringify(d.params),
        stream: d.stream,
        segment: d.segment,
        recommended_by: d.recommendedBy,
        recommended_code: d.recommendedCode,
        created_at: d.receivedAt,
      };
    }),
  );

  await updateLists(trx, drafts, events, ctx.now);

  const orderRows = orderIndexes.map((i) => {
    const d = drafts[i] as EventDraft;
    const e = events[i] as StoredEvent;
    const order = d.order as NonNullable<EventDraft['order']>;
    return {
      shop_id: d.shopId,
      id: ids.next(d.shopId, 'orders'),
      order_id: order.orderId,
      event_id: e.id,
      profile_id: e.profileId,
      did: d.did,
      items: JSON.stringify(d.items),
      delivery_type: order.deliveryType,
      payment_type: order.paymentType,
      promocode: order.promocode,
      items_total: order.itemsTotal,
      order_price: order.orderPrice,
      created_at: d.receivedAt,
      order_cash: order.parts.order_cash,
      order_bonuses: order.parts.order_bonuses,
      order_delivery: order.parts.order_delivery,
      order_discount: order.parts.order_discount,
      channel: order.channel,
      tax_free: order.taxFree === null ? null : toFlag(order.taxFree),
      gift_package: order.giftPackage === null ? null : toFlag(order.giftPackage),
      delivery_address: order.deliveryAddress,
      custom: order.custom === null ? null : JSON.stringify(order.custom),
      stream: order.stream,
    };
  });
  const inserted = new Set(await repo.insertOrders(trx, orderRows));

  if (ctx.rollups) {
    const orders = orderRows.flatMap((row, n) => {
      if (!inserted.has(JSON.stringify([row.shop_id, row.id]))) return [];
      const d = drafts[orderIndexes[n] as number] as EventDraft;
      return [{ shopId: row.shop_id, time: d.time, revenue: Number(row.order_price ?? row.items_total) }];
    });
    await ctx.rollups.trackedBatch(trx, events, orders);
  }
  if (ctx.listeners && ctx.listeners.length > 0) {
    const newOrders = new Set<StoredEvent>();
    orderRows.forEach((row, n) => {
      if (inserted.has(JSON.stringify([row.shop_id, row.id]))) newOrders.add(events[orderIndexes[n] as number] as StoredEvent);
    });
    for (const listener of ctx.listeners) await listener.storedBatch(trx, events, newOrders);
  }

  await updateCounters(trx, drafts, ctx);
  await recordActivity(trx, drafts, lastSeen, ctx.now);

  if (ctx.subscribers.length > 0) {
    for (const event of events) {
      for (const subscriber of ctx.subscribers) {
        if (!subscriber.accepts(event)) continue;
        const payload = { shopId: event.shopId, eventId: event.id, subscriber: subscriber.name };
        await ctx.jobs.enqueue('tracking.deliver', payload, {
          executor: trx,
          idempotencyKey: `${event.shopId}/${event.id}/${subscriber.name}`,
        });
      }
    }
  }
  return events;
}

/** Indexes of the drafts that create an order: the first purchase of each order_id in the batch. */
function ordersToCreate(drafts: readonly EventDraft[]): number[] {
  const seen = new Set<string>();
  const indexes: number[] = [];
  drafts.forEach((d, i) => {
    if (!d.order) return;
    if (d.order.orderId !== null) {
      const key = JSON.stringify([d.shopId, d.order.orderId]);
      if (seen.has(key)) return;
      seen.add(key);
    }
    indexes.push(i);
  });
  return indexes;
}

async function reserveIds(
  trx: Transaction<Database>,
  drafts: readonly EventDraft[],
  orderIndexes: readonly number[],
): Promise<{ next(shopId: string, name: 'events' | 'orders'): number }> {
  const counts = new Map<string, repo.IdRequest>();
  const count = (shopId: string, name: 'events' | 'orders') => {
    const key = `${shopId}/${name}`;
    const request = counts.get(key) ?? { shopId, name, count: 0 };
    counts.set(key, { ...request, count: request.count + 1 });
  };
  for (const d of drafts) count(d.shopId, 'events');
  for (const i of orderIndexes) count((drafts[i] as EventDraft).shopId, 'orders');

  const last = await repo.allocateIds(trx, [...counts.values()]);
  const next = new Map<string, number>();
  for (const [key, request] of counts) {
    const lastId = last.get(key);
    if (lastId === undefined) throw new Error(`No ids were reserved for ${key}`);
    next.set(key, lastId - request.count + 1);
  }
  return {
    next(shopId, name) {
      const key = `${shopId}/${name}`;
      const id = next.get(key) as number;
      next.set(key, id + 1);
      return id;
    },
  };
}

function identityInput(did: string | null, identifiers: EventIdentifiers | undefined): IdentityInput {
  return {
    did,
    email: identifiers?.email,
    phone: identifiers?.phone,
    externalId: identifiers?.external_id,
    loyaltyId: identifiers?.loyalty_id,
    telegramId: identifiers?.telegram_id,
  };
}

/**
 * The profile of every event, and when each device read here was last seen (the key is
 * JSON [shopId, did]).
 */
async function resolveProfiles(
  trx: Transaction<Database>,
  drafts: readonly EventDraft[],
  identity: IdentityService,
): Promise<{ profileIds: number[]; lastSeen: Map<string, number> }> {
  const lastSeen = new Map<string, number>();
  const profileIds: (number | undefined)[] = new Array<number | undefined>(drafts.length);
  /** `${shopId}/${fromProfileId}` → the profile it was merged into by this batch. */
  const merged = new Map<string, number>();

  for (const [i, d] of drafts.entries()) {
    if (d.identifiers === undefined && d.did !== null) continue;
    const resolved = await identity.resolveProfile(d.shopId, identityInput(d.did, d.identifiers), trx);
    profileIds[i] = resolved.profileId;
    for (const m of resolved.merges) merged.set(`${d.shopId}/${m.fromProfileId}`, m.intoProfileId);
  }

  const byDevice = drafts.flatMap((d, i) => (profileIds[i] === undefined && d.did !== null ? [i] : []));
  if (byDevice.length > 0) {
    const shops = new Set<string>();
    const dids = new Set<string>();
    for (const i of byDevice) {
      const d = drafts[i] as EventDraft;
      shops.add(d.shopId);
      dids.add(d.did as string);
    }
    const rows = await repo.findDeviceProfiles(trx, [...shops], [...dids]);
    const deviceProfile = new Map<string, number>();
    for (const r of rows) {
      const key = JSON.stringify([r.shop_id, r.did]);
      deviceProfile.set(key, r.profile_id);
      lastSeen.set(key, r.last_seen_at);
    }
    for (const i of byDevice) {
      const d = drafts[i] as EventDraft;
      const key = JSON.stringify([d.shopId, d.did]);
      let profileId = deviceProfile.get(key);
      if (profileId === undefined) {
        // A device this shop has never seen (the scope checks /push devices; custom
        // events may bring new ones): identity creates it with an anonymous profile.
        profileId = (await identity.resolveProfile(d.shopId, identityInput(d.did, undefined), trx)).profileId;
        deviceProfile.set(key, profileId);
      }
      profileIds[i] = profileId;
    }
  }

  // A later event of the batch may have merged the profile an earlier one resolved to.
  const survivors = drafts.map((d, i) => {
    let id = profileIds[i] as number;
    for (let into = merged.get(`${d.shopId}/${id}`); into !== undefined; into = merged.get(`${d.shopId}/${id}`)) {
      id = into;
    }
    return id;
  });
  return { profileIds: survivors, lastSeen };
}

async function updateLists(
  trx: Transaction<Database>,
  drafts: readonly EventDraft[],
  events: readonly StoredEvent[],
  now: number,
): Promise<void> {
  const changes = new Map<string, { shopId: string; profileId: number; list: ListName; ops: ListOperation[] }>();
  drafts.forEach((d, i) => {
    const profileId = (events[i] as StoredEvent).profileId;
    for (const change of d.listChanges) {
      const key = JSON.stringify([d.shopId, profileId, change.list]);
      const entry = changes.get(key) ?? { shopId: d.shopId, profileId, list: change.list, ops: [] };
      entry.ops.push(change.op);
      changes.set(key, entry);
    }
  });
  if (changes.size === 0) return;

  const entries = [...changes.values()];
  const rows = await repo.findLists(trx, [...new Set(entries.map((e) => e.shopId))], [...new Set(entries.map((e) => e.profileId))]);
  const current = new Map(rows.map((r) => [JSON.stringify([r.shop_id, r.profile_id, r.list]), JSON.parse(r.items) as TrackedItem[]]));
  await repo.upsertLists(
    trx,
    [...changes].map(([key, e]) => ({
      shop_id: e.shopId,
      profile_id: e.profileId,
      list: e.list,
      items: JSON.stringify(applyListOperations(current.get(key) ?? [], e.ops)),
      updated_at: now,
    })),
  );
}

async function updateCounters(trx: Transaction<Database>, drafts: readonly EventDraft[], ctx: BatchContext): Promise<void> {
  const hits: CounterHit[] = [];
  for (const d of drafts) {
    if (d.counter && d.items.length > 0) {
      hits.push({ shopId: d.shopId, time: d.time, kind: d.counter, itemIds: d.items.map((item) => item.id) });
    }
  }
  await counters.addToCounters(
    trx,
    aggregateCounterHits(hits).map((r) => ({
      shop_id: r.shopId,
      item_id: r.itemId,
      granularity: r.granularity,
      bucket: r.bucket,
      views: r.views,
      carts: r.carts,
      purchases: r.purchases,
    })),
  );
  for (const shopId of ctx.pruneShops) {
    for (const window of COUNTER_WINDOWS) {
      await counters.deleteCountersBefore(trx, shopId, window.granularity, ctx.now - window.retainMs);
    }
  }
}

/**
 * Sessions (one row per sid of the batch) and the devices' last activity: only devices
 * last seen a minute ago or earlier are written (devices not read here, because identity resolved
 * them, are left to the update's own condition).
 */
async function recordActivity(
  trx: Transaction<Database>,
  drafts: readonly EventDraft[],
  lastSeen: ReadonlyMap<string, number>,
  now: number,
): Promise<void> {
  const staleAt = now - DEVICE_SEEN_PRECISION_MS;
  const sessions = new Map<string, repo.SessionRow>();
  const devices = new Map<string, Set<string>>();
  for (const d of drafts) {
    if (d.did !== null && (lastSeen.get(JSON.stringify([d.shopId, d.did])) ?? -Infinity) <= staleAt) {
      devices.set(d.shopId, (devices.get(d.shopId) ?? new Set<string>()).add(d.did));
    }
    if (d.sid === null) continue;
    const key = JSON.stringify([d.shopId, d.sid]);
    const session = sessions.get(key);
    sessions.set(key, {
      shop_id: d.shopId,
      sid: d.sid,
      did: session?.did ?? d.did,
      started_at: Math.min(session?.started_at ?? d.receivedAt, d.receivedAt),
      last_activity_at: Math.max(session?.last_activity_at ?? d.receivedAt, d.receivedAt),
    });
  }
  await repo.upsertSessions(trx, [...sessions.values()]);
  for (const [shopId, dids] of devices) await repo.touchDevices(trx, shopId, [...dids], now, staleAt);
}
