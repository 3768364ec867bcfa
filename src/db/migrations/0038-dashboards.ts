import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The dashboards' daily rollups (docs/dashboards.md), kept as data arrives so that no
 * dashboard read scans events, orders, messages or the ledger:
 * - dashboard_days (shop_id, day, series, key): one counter per shop, day of the shop's
 *   time zone and series (events by type, orders, revenue, active customers, messages by
 *   channel …), added to in the transaction that writes what it counts.
 * - dashboard_active (shop_id, day, profile_id): who did something that day; a row that
 *   is new adds one to that day's `active` counter, so the count is exact and read as one row.
 * - dashboard_funnels (shop_id, type, mailing_id, channel): each mailing's, chain's and bulk
 *   mailing's counters, per channel.
 * - dashboard_backfill: per shop, what was stored before this migration and where the
 *   `dashboards.backfill` job has got to in counting it (resumable, a batch per commit).
 *   The marks are taken here: events and ledger entries up to the ids stored now, and
 *   members, deliveries and their outcomes timestamped before now, are the backfill's; all
 *   later ones are counted as they are written.
 */
export function dashboards(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('dashboard_days')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('series', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('dashboard_days_pk', ['shop_id', 'day', 'series', 'key'])
        .execute();
      await db.schema
        .createTable('dashboard_active')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('dashboard_active_pk', ['shop_id', 'day', 'profile_id'])
        .execute();
      await db.schema
        .createTable('dashboard_funnels')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('mailing_id', 'bigint', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('sent', 'bigint', (c) => c.notNull())
        .addColumn('delivered', 'bigint', (c) => c.notNull())
        .addColumn('bounced', 'bigint', (c) => c.notNull())
        .addColumn('opened', 'bigint', (c) => c.notNull())
        .addColumn('clicked', 'bigint', (c) => c.notNull())
        .addColumn('purchased', 'bigint', (c) => c.notNull())
        .addColumn('revenue', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('dashboard_funnels_pk', ['shop_id', 'type', 'mailing_id', 'channel'])
        .execute();
      await db.schema
        .createTable('dashboard_backfill')
        .addColumn('shop_id', 'text', (c) => c.notNull().primaryKey())
        .addColumn('cutoff', 'bigint', (c) => c.notNull())
        .addColumn('events_until', 'bigint', (c) => c.notNull())
        .addColumn('ledger_until', 'bigint', (c) => c.notNull())
        .addColumn('phase', 'text', (c) => c.notNull())
        .addColumn('cursor', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      // One backfill per shop, and its job (the queue's row as jobs/queue.ts writes it; the
      // key keeps a second one from being queued), due at once whatever the process's clock.
      const now = Date.now();
      const { rows: shops } = await sql<{ shop_id: string }>`select shop_id from shops order by shop_id`.execute(db);
      for (const { shop_id: shopId } of shops) {
        await sql`insert into dashboard_backfill (shop_id, cutoff, events_until, ledger_until, phase, cursor, updated_at)
          values (${shopId}, ${now},
            coalesce((select t.last_id from tracking_sequences t where t.shop_id = ${shopId} and t.name = 'events'), 0),
            coalesce((select l.last_id from loyalty_sequences l where l.shop_id = ${shopId}), 0),
            'events', '0', ${now})`.execute(db);
        await sql`insert into jobs (name, payload, status, idempotency_key, attempts, run_at, created_at, updated_at)
          values ('dashboards.backfill', ${JSON.stringify({ shopId })}, 'queued', ${`dashboards.backfill:${shopId}`}, 0, 0, ${now}, ${now})`.execute(
          db,
        );
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await sql`delete from jobs where name = 'dashboards.backfill'`.execute(db);
      await db.schema.dropTable('dashboard_backfill').execute();
      await db.schema.dropTable('dashboard_funnels').execute();
      await db.schema.dropTable('dashboard_active').execute();
      await db.schema.dropTable('dashboard_days').execute();
    },
  };
}
