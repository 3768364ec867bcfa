import { sql, type Kysely, type Transaction } from 'kysely';
import { PreparedQuery, PreparedQueryFamily } from '../../db/prepared-query.js';
import { columnCount, parameterChunks } from '../../db/statement-slices.js';
import type { Database } from '../../db/types.js';
import type { DayCount, FunnelCount, FunnelRow } from './domain/series.js';

export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The rollup tables (migration 0038). Counters are added to with one multi-row upsert
 * whose rows are sorted by key: two transactions that add to the same counters lock them
 * in the same order on PostgreSQL, so they wait rather than deadlock.
 */

/**
 * A tracking batch's few rows go through statements compiled once per row count
 * (db/prepared-query.ts): compiling a multi-row upsert costs more than SQLite spends
 * running it, on the hottest write path. Larger sets (the backfill's) are built each time.
 */
const PREPARED_ROWS = 64;

type DayValues = [string, string, string, string, number];
const daysUpsert = new PreparedQueryFamily(
  (rows: number) =>
    new PreparedQuery(rows * 5, (db, ...args: unknown[]) =>
      db
        .insertInto('dashboard_days')
        .values(
          Array.from({ length: rows }, (_, i) => ({
            shop_id: args[i * 5] as string,
            day: args[i * 5 + 1] as string,
            series: args[i * 5 + 2] as string,
            key: args[i * 5 + 3] as string,
            value: args[i * 5 + 4] as number,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['shop_id', 'day', 'series', 'key'])
            .doUpdateSet((eb) => ({ value: eb('dashboard_days.value', '+', eb.ref('excluded.value')) })),
        ),
    ),
);

const activeInsert = new PreparedQueryFamily(
  (rows: number) =>
    new PreparedQuery(rows * 3, (db, ...args: unknown[]) =>
      db
        .insertInto('dashboard_active')
        .values(
          Array.from({ length: rows }, (_, i) => ({
            shop_id: args[i * 3] as string,
            day: args[i * 3 + 1] as string,
            profile_id: args[i * 3 + 2] as number,
          })),
        )
        .onConflict((oc) => oc.columns(['shop_id', 'day', 'profile_id']).doNothing())
        .returning('day'),
    ),
);

export async function addToDays(db: Executor, shopId: string, counts: readonly DayCount[]): Promise<void> {
  if (counts.length === 0) return;
  const rows = counts
    .map((c) => ({ shop_id: shopId, day: c.day, series: c.series, key: c.key, value: c.value }))
    .sort((a, b) => compareKeys([a.day, a.series, a.key], [b.day, b.series, b.key]));
  if (rows.length <= PREPARED_ROWS) {
    const args = rows.flatMap((r): DayValues => [r.shop_id, r.day, r.series, r.key, r.value]);
    await daysUpsert.of(rows.length).run(db, ...args);
    return;
  }
  for (const chunk of parameterChunks(rows, columnCount(rows))) {
    await db
      .insertInto('dashboard_days')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(['shop_id', 'day', 'series', 'key'])
          .doUpdateSet((eb) => ({ value: eb('dashboard_days.value', '+', eb.ref('excluded.value')) })),
      )
      .execute();
  }
}

/** Records who was active on which day; answers the (day, profile) pairs that were new. */
export async function insertActive(
  db: Executor,
  shopId: string,
  pairs: ReadonlyArray<{ day: string; profileId: number }>,
): Promise<Array<{ day: string }>> {
  if (pairs.length === 0) return [];
  const rows = pairs
    .map((p) => ({ shop_id: shopId, day: p.day, profile_id: p.profileId }))
    .sort((a, b) => compareKeys([a.day, a.profile_id], [b.day, b.profile_id]));
  if (rows.length <= PREPARED_ROWS) {
    const args = rows.flatMap((r) => [r.shop_id, r.day, r.profile_id]);
    return activeInsert.of(rows.length).execute(db, ...args);
  }
  const inserted: Array<{ day: string }> = [];
  for (const chunk of parameterChunks(rows, columnCount(rows))) {
    inserted.push(
      ...(await db
        .insertInto('dashboard_active')
        .values(chunk)
        .onConflict((oc) => oc.columns(['shop_id', 'day', 'profile_id']).doNothing())
        .returning('day')
        .execute()),
    );
  }
  return inserted;
}

export async function addToFunnels(db: Executor, shopId: string, counts: readonly FunnelCount[]): Promise<void> {
  if (counts.length === 0) return;
  const merged = new Map<string, Required<FunnelCount>>();
  for (const c of counts) {
    const id = JSON.stringify([c.type, c.mailingId, c.channel]);
    const entry = merged.get(id) ?? {
      type: c.type,
      mailingId: c.mailingId,
      channel: c.channel,
      sent: 0,
      delivered: 0,
      bounced: 0,
      opened: 0,
      clicked: 0,
      purchased: 0,
      revenue: 0,
    };
    merged.set(id, {
      ...entry,
      sent: entry.sent + (c.sent ?? 0),
      delivered: entry.delivered + (c.delivered ?? 0),
      bounced: entry.bounced + (c.bounced ?? 0),
      opened: entry.opened + (c.opened ?? 0),
      clicked: entry.clicked + (c.clicked ?? 0),
      purchased: entry.purchased + (c.purchased ?? 0),
      revenue: entry.revenue + (c.revenue ?? 0),
    });
  }
  const rows = [...merged.values()]
    .map((c) => ({
      shop_id: shopId,
      type: c.type,
      mailing_id: c.mailingId,
      channel: c.channel,
      sent: c.sent,
      delivered: c.delivered,
      bounced: c.bounced,
      opened: c.opened,
      clicked: c.clicked,
      purchased: c.purchased,
      revenue: c.revenue,
    }))
    .sort((a, b) => compareKeys([a.type, a.mailing_id, a.channel], [b.type, b.mailing_id, b.channel]));
  const add = (column: 'sent' | 'delivered' | 'bounced' | 'opened' | 'clicked' | 'purchased' | 'revenue') =>
    sql<number>`${sql.ref(`dashboard_funnels.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  await db
    .insertInto('dashboard_funnels')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['shop_id', 'type', 'mailing_id', 'channel']).doUpdateSet({
        sent: add('sent'),
        delivered: add('delivered'),
        bounced: add('bounced'),
        opened: add('opened'),
        clicked: add('clicked'),
        purchased: add('purchased'),
        revenue: add('revenue'),
      }),
    )
    .execute();
}

export interface DayRow {
  readonly day: string;
  readonly series: string;
  readonly key: string;
  readonly value: number;
}

/** Every counter of the shop's days in [from, to]: one range of the primary key. */
export async function readDays(db: Executor, shopId: string, from: string, to: string): Promise<DayRow[]> {
  const rows = await db
    .selectFrom('dashboard_days')
    .select(['day', 'series', 'key', 'value'])
    .where('shop_id', '=', shopId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
  return rows.map((r) => ({ day: r.day, series: r.series, key: r.key, value: Number(r.value) }));
}

export async function readFunnel(db: Executor, shopId: string, type: string, mailingId: number): Promise<FunnelRow[]> {
  const rows = await db
    .selectFrom('dashboard_funnels')
    .select(['channel', 'sent', 'delivered', 'bounced', 'opened', 'clicked', 'purchased', 'revenue'])
    .where('shop_id', '=', shopId)
    .where('type', '=', type)
    .where('mailing_id', '=', mailingId)
    .execute();
  return rows.map((r) => ({
    channel: r.channel,
    sent: Number(r.sent),
    delivered: Number(r.delivered),
    bounced: Number(r.bounced),
    opened: Number(r.opened),
    clicked: Number(r.clicked),
    purchased: Number(r.purchased),
    revenue: Number(r.revenue),
  }));
}

export async function findShopTimezone(db: Executor, shopId: string): Promise<string | undefined> {
  const row = await db.selectFrom('shops').select('timezone').where('shop_id', '=', shopId).executeTakeFirst();
  return row?.timezone;
}

function compareKeys(a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}
