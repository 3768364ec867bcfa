import Database from 'better-sqlite3';
import pg from 'pg';
import type { DbOptions } from '../../src/db/create-db.js';
import type { GeneratedEvent, GeneratedOrder, Visitor } from './reco-events.js';

/**
 * Writes bench:recommend's generated history straight into tracking's tables while the
 * server is stopped: prepared single-row inserts in large transactions on SQLite, arrays
 * through unnest() on PostgreSQL. The events' secondary indexes are dropped for the load
 * and created again from their own stored definitions afterwards (one sort each instead
 * of 10 million random B-tree inserts), and the shop's id sequences are moved past the
 * rows, so that the server's next events follow them. Bench-only: the server's own code
 * never writes this way.
 */

/** SQLite's writer answers at once (better-sqlite3 is synchronous), PostgreSQL's in promises. */
type Maybe<T> = T | Promise<T>;

export interface HistoryWriter {
  /** The devices of the shop with their profiles (those GET /init made). */
  devices(shopId: string): Maybe<Visitor[]>;
  /** The shop's last event and order ids. */
  lastIds(shopId: string): Maybe<{ events: number; orders: number }>;
  /** Drops the events' secondary indexes until `finish`. */
  begin(): Maybe<void>;
  write(shopId: string, events: readonly GeneratedEvent[], orders: readonly GeneratedOrder[]): Maybe<void>;
  /** Recreates the indexes, sets the sequences, analyzes; then closes. */
  finish(shopId: string, lastEventId: number, lastOrderId: number): Maybe<void>;
}

/**
 * Jobs the setup queued that are not measured and would run beside the build: the feed's
 * picture downloads (its links lead nowhere) and the dashboards' backfill, which would
 * count the history the bench wrote behind tracking's back. Dropped before the server
 * starts with its job thread.
 */
const SETUP_JOBS = ['images.download', 'dashboards.backfill', 'chains.product_alerts'];

const EVENT_INDEXES = ['events_shop_did_id_idx', 'events_shop_profile_time_idx', 'events_shop_view_sid_idx'];

export function openHistoryWriter(options: DbOptions): HistoryWriter {
  return options.kind === 'sqlite' ? sqliteWriter(options.file) : postgresWriter(options.url);
}

function sqliteWriter(file: string): HistoryWriter {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  let saved: string[] = [];
  const insertEvent = db.prepare(
    `insert into events (shop_id, id, profile_id, did, sid, event, custom, time, items, params, stream, segment, recommended_by, recommended_code, created_at)
     values (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, null, null, null, null, ?)`,
  );
  const insertOrder = db.prepare(
    `insert into orders (shop_id, id, order_id, event_id, profile_id, did, items, delivery_type, payment_type, promocode, items_total,
       order_price, created_at, order_cash, order_bonuses, order_delivery, order_discount, channel, tax_free, gift_package, delivery_address, custom, stream)
     values (?, ?, ?, ?, ?, ?, ?, null, null, null, ?, null, ?, null, null, null, null, null, null, null, null, null, null)`,
  );
  const writeAll = db.transaction((shopId: string, events: readonly GeneratedEvent[], orders: readonly GeneratedOrder[]) => {
    for (const e of events) insertEvent.run(shopId, e.id, e.profileId, e.did, e.sid, e.event, e.time, e.items, e.params, e.time);
    for (const o of orders) insertOrder.run(shopId, o.id, o.orderId, o.eventId, o.profileId, o.did, o.items, o.itemsTotal, o.createdAt);
  });
  return {
    devices: (shopId) =>
      (
        db.prepare('select did, profile_id from devices where shop_id = ? order by did').all(shopId) as Array<{
          did: string;
          profile_id: number;
        }>
      ).map((r) => ({ did: r.did, profileId: Number(r.profile_id) })),
    lastIds: (shopId) => {
      const row = (name: string) =>
        (
          db.prepare('select last_id from tracking_sequences where shop_id = ? and name = ?').get(shopId, name) as
            | { last_id: number }
            | undefined
        )?.last_id ?? 0;
      return { events: Number(row('events')), orders: Number(row('orders')) };
    },
    begin: () => {
      saved = EVENT_INDEXES.map((name) => {
        const row = db.prepare("select sql from sqlite_master where type = 'index' and name = ?").get(name) as { sql: string } | undefined;
        if (!row) throw new Error(`index ${name} is missing`);
        return row.sql;
      });
      for (const name of EVENT_INDEXES) db.exec(`drop index ${name}`);
    },
    write: (shopId, events, orders) => writeAll(shopId, events, orders),
    finish: (shopId, lastEventId, lastOrderId) => {
      try {
        for (const statement of saved) db.exec(statement);
        setSequence(db, shopId, 'events', lastEventId);
        setSequence(db, shopId, 'orders', lastOrderId);
        db.prepare(`delete from jobs where finished_at is null and name in (${SETUP_JOBS.map(() => '?').join(', ')})`).run(...SETUP_JOBS);
        db.exec('analyze');
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.close();
      }
    },
  };
}

function setSequence(db: Database.Database, shopId: string, name: string, lastId: number): void {
  db.prepare(
    'insert into tracking_sequences (shop_id, name, last_id) values (?, ?, ?) on conflict (shop_id, name) do update set last_id = excluded.last_id',
  ).run(shopId, name, lastId);
}

function postgresWriter(url: string): HistoryWriter {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  let saved: string[] = [];
  const query = async (text: string, values?: unknown[]) => {
    await connected;
    return client.query(text, values);
  };
  return {
    devices: async (shopId) =>
      (await query('select did, profile_id from devices where shop_id = $1 order by did', [shopId])).rows.map((r) => ({
        did: String(r.did),
        profileId: Number(r.profile_id),
      })),
    lastIds: async (shopId) => {
      const rows = (await query('select name, last_id from tracking_sequences where shop_id = $1', [shopId])).rows;
      const of = (name: string) => Number(rows.find((r) => r.name === name)?.last_id ?? 0);
      return { events: of('events'), orders: of('orders') };
    },
    begin: async () => {
      const rows = (
        await query('select indexname, indexdef from pg_indexes where tablename = $1 and indexname = any($2)', ['events', EVENT_INDEXES])
      ).rows;
      if (rows.length !== EVENT_INDEXES.length) throw new Error('an index of events is missing');
      saved = rows.map((r) => String(r.indexdef));
      for (const name of EVENT_INDEXES) await query(`drop index ${name}`);
    },
    write: async (shopId, events, orders) => {
      await query('begin');
      await query(
        `insert into events (shop_id, id, profile_id, did, sid, event, custom, time, items, params, created_at)
         select $1, id, profile_id, did, sid, event, 0, time, items, params, time
         from unnest($2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[])
           as t(id, profile_id, did, sid, event, time, items, params)`,
        [
          shopId,
          events.map((e) => e.id),
          events.map((e) => e.profileId),
          events.map((e) => e.did),
          events.map((e) => e.sid),
          events.map((e) => e.event),
          events.map((e) => e.time),
          events.map((e) => e.items),
          events.map((e) => e.params),
        ],
      );
      if (orders.length > 0) {
        await query(
          `insert into orders (shop_id, id, order_id, event_id, profile_id, did, items, items_total, created_at)
           select $1, id, order_id, event_id, profile_id, did, items, items_total, created_at
           from unnest($2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::bigint[], $9::bigint[])
             as t(id, order_id, event_id, profile_id, did, items, items_total, created_at)`,
          [
            shopId,
            orders.map((o) => o.id),
            orders.map((o) => o.orderId),
            orders.map((o) => o.eventId),
            orders.map((o) => o.profileId),
            orders.map((o) => o.did),
            orders.map((o) => o.items),
            orders.map((o) => o.itemsTotal),
            orders.map((o) => o.createdAt),
          ],
        );
      }
      await query('commit');
    },
    finish: async (shopId, lastEventId, lastOrderId) => {
      try {
        for (const statement of saved) await query(statement);
        for (const [name, lastId] of [
          ['events', lastEventId],
          ['orders', lastOrderId],
        ] as const) {
          await query(
            `insert into tracking_sequences (shop_id, name, last_id) values ($1, $2, $3)
             on conflict (shop_id, name) do update set last_id = excluded.last_id`,
            [shopId, name, lastId],
          );
        }
        await query('delete from jobs where finished_at is null and name = any($1)', [SETUP_JOBS]);
        await query('analyze events');
        await query('analyze orders');
      } finally {
        await client.end();
      }
    },
  };
}
