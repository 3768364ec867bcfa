import type { Executor } from './messaging.repo.js';

/**
 * Statistics updates of sent deliveries (docs/messaging.md, "Tracking"). Each sets its
 * timestamp only where it is still null, in one conditional UPDATE: a repeated pixel
 * load, SDK report or webhook keeps the first time and changes nothing else. Test sends
 * keep no statistics.
 */

export type Outcome =
  | 'delivered_at'
  | 'opened_at'
  | 'clicked_at'
  | 'unsubscribed_at'
  | 'hard_bounced_at'
  | 'soft_bounced_at'
  | 'complained_at'
  | 'purchased_at';

export interface OutcomeTarget {
  readonly shopId: string;
  readonly code: string;
  readonly channel: string;
  /** One delivery of the message; all of the channel's when absent. */
  readonly seq?: number;
  /** Only the delivery to this address (a bounce names the address). */
  readonly address?: string;
}

/** Sets the outcomes not yet set; answers how many deliveries the target matched. */
export async function markOutcome(db: Executor, target: OutcomeTarget, outcomes: readonly Outcome[], at: number): Promise<number> {
  let query = db
    .updateTable('messaging_deliveries')
    .set((eb) => Object.fromEntries(outcomes.map((o) => [o, eb.fn.coalesce(o, eb.val(at))])))
    .where('shop_id', '=', target.shopId)
    .where('code', '=', target.code)
    .where('channel', '=', target.channel)
    .where('test', '=', 0)
    .where('status', '=', 'sent');
  if (target.seq !== undefined) query = query.where('seq', '=', target.seq);
  if (target.address !== undefined) query = query.where('address', '=', target.address);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** One outcome on the target's deliveries that do not have it yet: the count of those it was first set on. */
export async function markOutcomeOnce(db: Executor, target: OutcomeTarget, outcome: Outcome, at: number): Promise<number> {
  let query = db
    .updateTable('messaging_deliveries')
    .set({ [outcome]: at })
    .where('shop_id', '=', target.shopId)
    .where('code', '=', target.code)
    .where('channel', '=', target.channel)
    .where('test', '=', 0)
    .where('status', '=', 'sent')
    .where(outcome, 'is', null);
  if (target.seq !== undefined) query = query.where('seq', '=', target.seq);
  if (target.address !== undefined) query = query.where('address', '=', target.address);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface SentDelivery {
  readonly code: string;
  readonly seq: number;
  readonly channel: string;
  readonly type: string;
  readonly profileId: number;
  readonly address: string;
}

/** The sent, non-test deliveries of a message on a channel. */
export async function sentDeliveries(db: Executor, shopId: string, code: string, channel: string): Promise<SentDelivery[]> {
  const rows = await db
    .selectFrom('messaging_deliveries')
    .select(['code', 'seq', 'channel', 'type', 'profile_id', 'address'])
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where('channel', '=', channel)
    .where('test', '=', 0)
    .where('status', '=', 'sent')
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    code: r.code,
    seq: r.seq,
    channel: r.channel,
    type: r.type,
    profileId: Number(r.profile_id),
    address: r.address,
  }));
}

/** The profiles' latest click in [since, until], if any. */
export async function lastClickSince(
  db: Executor,
  shopId: string,
  profileIds: readonly number[],
  since: number,
  until: number,
): Promise<{ code: string }[]> {
  if (profileIds.length === 0) return [];
  return db
    .selectFrom('messaging_deliveries')
    .select(['code'])
    .where('shop_id', '=', shopId)
    .where('profile_id', 'in', [...profileIds])
    .where('test', '=', 0)
    .where('clicked_at', '>=', since)
    .where('clicked_at', '<=', until)
    .orderBy('clicked_at', 'desc')
    .limit(1)
    .execute();
}

/** Sets purchased on every channel of the message. */
export async function markPurchased(db: Executor, shopId: string, code: string, at: number): Promise<number> {
  const result = await db
    .updateTable('messaging_deliveries')
    .set({ purchased_at: at })
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where('test', '=', 0)
    .where('status', '=', 'sent')
    .where('purchased_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
