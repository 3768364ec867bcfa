import type { Kysely } from 'kysely';
import type { Database } from '../../../src/db/types.js';
import { dateInTimezone } from '../../../src/modules/shops/index.js';

/**
 * What the dashboard must say, computed the slow way: from every raw row of the shop
 * (events, orders, members, the ledger, deliveries), with the day of each moment in the
 * shop's zone from Intl directly. Amounts in minor units.
 */
export interface TruthDay {
  events: Record<string, number>;
  active: number;
  orders: number;
  revenue: number;
  members: number;
  issued: number;
  spent: number;
  messages: Record<string, { sent: number; opened: number; clicked: number }>;
  attributedPurchases: number;
  attributedRevenue: number;
}

export type Truth = Map<string, TruthDay>;

function blank(): TruthDay {
  return {
    events: {},
    active: 0,
    orders: 0,
    revenue: 0,
    members: 0,
    issued: 0,
    spent: 0,
    messages: {},
    attributedPurchases: 0,
    attributedRevenue: 0,
  };
}

export async function truthOf(db: Kysely<Database>, shopId: string, zone: string): Promise<Truth> {
  const truth: Truth = new Map();
  const at = (ms: number | string) => {
    const day = dateInTimezone(Number(ms), zone);
    let entry = truth.get(day);
    if (!entry) {
      entry = blank();
      truth.set(day, entry);
    }
    return entry;
  };
  const events = await db
    .selectFrom('events')
    .select(['id', 'event', 'time', 'profile_id', 'params', 'items'])
    .where('shop_id', '=', shopId)
    .execute();
  const active = new Set<string>();
  for (const e of events) {
    const day = at(e.time);
    day.events[e.event] = (day.events[e.event] ?? 0) + 1;
    const key = `${dateInTimezone(Number(e.time), zone)}/${e.profile_id}`;
    if (!active.has(key)) {
      active.add(key);
      day.active += 1;
    }
  }
  const orders = await db
    .selectFrom('orders as o')
    .innerJoin('events as e', (j) => j.onRef('e.shop_id', '=', 'o.shop_id').onRef('e.id', '=', 'o.event_id'))
    .select(['e.time', 'o.order_price', 'o.items_total'])
    .where('o.shop_id', '=', shopId)
    .execute();
  for (const o of orders) {
    const day = at(o.time);
    day.orders += 1;
    day.revenue += Number(o.order_price ?? o.items_total);
  }
  for (const m of await db.selectFrom('loyalty_members').select('created_at').where('shop_id', '=', shopId).execute())
    at(m.created_at).members += 1;
  for (const t of await db.selectFrom('loyalty_transactions').selectAll().where('shop_id', '=', shopId).execute()) {
    if (t.entry === 'credit') at(t.created_at).issued += Number(t.amount);
    else if (t.entry === 'debit' && t.kind === 'debit') at(t.created_at).spent -= Number(t.amount);
    else if (t.entry === 'hold' && t.status === 'confirmed') at(t.updated_at).spent -= Number(t.amount);
  }
  const deliveries = await db
    .selectFrom('messaging_deliveries')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('test', '=', 0)
    .where('status', '=', 'sent')
    .execute();
  const channel = (day: TruthDay, name: string) => (day.messages[name] ??= { sent: 0, opened: 0, clicked: 0 });
  const purchased = new Map<string, number>();
  for (const d of deliveries) {
    if (d.sent_at !== null) channel(at(d.sent_at), d.channel).sent += 1;
    if (d.opened_at !== null) channel(at(d.opened_at), d.channel).opened += 1;
    if (d.clicked_at !== null) channel(at(d.clicked_at), d.channel).clicked += 1;
    if (d.purchased_at !== null) purchased.set(d.code, Number(d.purchased_at));
  }
  // The workload names each message in at most one purchase (recommended_code), so the
  // purchase's value is that event's.
  for (const [code, time] of purchased) {
    const day = at(time);
    day.attributedPurchases += 1;
    const event = events.find(
      (e) => e.event === 'purchase' && (JSON.parse(e.params) as { recommended_code?: string }).recommended_code === code,
    );
    if (event) {
      const params = JSON.parse(event.params) as { order_price?: number };
      const items = JSON.parse(event.items) as Array<{ price?: number; amount: number }>;
      day.attributedRevenue += Math.round((params.order_price ?? items.reduce((sum, i) => sum + (i.price ?? 0) * i.amount, 0)) * 100);
    }
  }
  return truth;
}

/** The dashboard's answer for a day, in the truth's terms (minor units back from currency units). */
export function fromAnswer(day: {
  events: Record<string, number>;
  active_customers: number;
  orders: number;
  revenue: number;
  new_members: number;
  bonuses_issued: number;
  bonuses_spent: number;
  messages: Record<string, { sent: number; opened: number; clicked: number }>;
  attributed_purchases: number;
  attributed_revenue: number;
}): TruthDay {
  return {
    events: day.events,
    active: day.active_customers,
    orders: day.orders,
    revenue: Math.round(day.revenue * 100),
    members: day.new_members,
    issued: Math.round(day.bonuses_issued * 100),
    spent: Math.round(day.bonuses_spent * 100),
    messages: Object.fromEntries(Object.entries(day.messages).map(([c, m]) => [c, { sent: m.sent, opened: m.opened, clicked: m.clicked }])),
    attributedPurchases: day.attributed_purchases,
    attributedRevenue: Math.round(day.attributed_revenue * 100),
  };
}
