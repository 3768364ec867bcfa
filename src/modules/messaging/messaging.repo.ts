import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type {
  Database,
  MessagingChannelsTable,
  MessagingDeliveriesTable,
  MessagingMailingsTable,
  MessagingMessagesTable,
} from '../../db/types.js';
import { PreparedQuery, PreparedQueryFamily, PreparedRowQuery } from '../../db/prepared-query.js';
import { takeShopSequence } from '../../db/sequences.js';

/** Kysely only: rows of the messaging tables in and out. Every query filters by shop_id. */

export type Executor = Kysely<Database> | Transaction<Database>;
export type ChannelRow = Selectable<MessagingChannelsTable>;
export type MailingRow = Selectable<MessagingMailingsTable>;
export type MessageRow = Selectable<MessagingMessagesTable>;
export type DeliveryRow = Selectable<MessagingDeliveriesTable>;

export async function upsertChannel(db: Executor, row: Insertable<MessagingChannelsTable>): Promise<void> {
  await db
    .insertInto('messaging_channels')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['shop_id', 'channel']).doUpdateSet({
        settings: row.settings,
        rate_per_second: row.rate_per_second ?? null,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function findChannel(db: Executor, shopId: string, channel: string): Promise<ChannelRow | undefined> {
  return db.selectFrom('messaging_channels').selectAll().where('shop_id', '=', shopId).where('channel', '=', channel).executeTakeFirst();
}

export async function listChannels(db: Executor, shopId: string): Promise<ChannelRow[]> {
  return db.selectFrom('messaging_channels').selectAll().where('shop_id', '=', shopId).orderBy('channel').execute();
}

/** The next per-shop id of `kind`, in one upsert (no read-then-write); with `count`, the last of `count` ids reserved at once. */
export async function nextId(db: Executor, shopId: string, kind: string, count = 1): Promise<number> {
  return takeShopSequence(db, 'messaging_sequences', shopId, { column: 'kind', value: kind }, count);
}

export async function findMailing(db: Executor, shopId: string, code: string): Promise<MailingRow | undefined> {
  return db.selectFrom('messaging_mailings').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

/**
 * A page of the shop's transactional mailings by code, those after `after` (keyset on the
 * primary key), with `q` (lower case) inside the code or the name when given.
 */
export async function listMailings(
  db: Executor,
  shopId: string,
  limit: number,
  after: string | null,
  q: string | null = null,
): Promise<MailingRow[]> {
  let query = db.selectFrom('messaging_mailings').selectAll().where('shop_id', '=', shopId);
  if (after !== null) query = query.where('code', '>', after);
  if (q !== null) {
    const pattern = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    query = query.where(sql<boolean>`(lower(code) like ${pattern} escape '\\' or lower(coalesce(name, '')) like ${pattern} escape '\\')`);
  }
  return query.orderBy('code').limit(limit).execute();
}

/** Deletes a mailing; false when the shop has none of that code. */
export async function deleteMailing(db: Executor, shopId: string, code: string): Promise<boolean> {
  const result = await db.deleteFrom('messaging_mailings').where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertMailing(db: Executor, row: Insertable<MessagingMailingsTable>): Promise<void> {
  await db.insertInto('messaging_mailings').values(row).execute();
}

export async function updateMailing(
  db: Executor,
  shopId: string,
  code: string,
  values: Pick<Updateable<MessagingMailingsTable>, 'name' | 'templates' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('messaging_mailings').set(values).where('shop_id', '=', shopId).where('code', '=', code).execute();
}

/** Inserts a message; false when its idempotency key is the shop's already (the unique index decides). */
// The writes of every message and delivery, compiled once per shape (db/prepared-query.ts).
const insertMessageRow = new PreparedRowQuery(0, (db, row: Insertable<MessagingMessagesTable>) =>
  db
    .insertInto('messaging_messages')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'idempotency_key']).doNothing())
    .returning('code'),
);
const insertDeliveryRow = new PreparedRowQuery(0, (db, row: Insertable<MessagingDeliveriesTable>) =>
  db.insertInto('messaging_deliveries').values(row),
);
type QueuedKey = readonly [shopId: string, code: string, seq: number, status: 'queued', attempts: number];
type MarkedKey = readonly [...QueuedKey, token: string];
const queuedWhere = (db: Kysely<Database>, ...[shopId, code, seq, status, attempts]: QueuedKey) =>
  db
    .updateTable('messaging_deliveries')
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where('seq', '=', seq)
    .where('status', '=', status)
    .where('attempts', '=', attempts);
/** An outcome of a delivery that nobody marked (not sent: no template, no vendor), or … */
const updateUnmarked = new PreparedRowQuery(5, (db, values: Updateable<MessagingDeliveriesTable>, ...key: QueuedKey) =>
  queuedWhere(db, ...key)
    .set(values)
    .where('send_token', 'is', null),
);
/** … of the send of the claim that holds its mark (or of a mark that claim took over). */
const updateMarked = new PreparedRowQuery(
  6,
  (db, values: Updateable<MessagingDeliveriesTable>, ...[token, ...key]: [string, ...QueuedKey]) =>
    queuedWhere(db, ...key)
      .set(values)
      .where('send_token', '=', token),
);
const markFree = new PreparedQuery(6, (db, token: string, ...key: QueuedKey) =>
  queuedWhere(db, ...key)
    .set({ send_token: token, send_beat: sql.lit(0) })
    .where('send_token', 'is', null),
);
const markTakenOver = new PreparedQuery(
  8,
  (db, token: string, seenBeat: number, ...[shopId, code, seq, status, attempts, seenToken]: MarkedKey) =>
    queuedWhere(db, shopId, code, seq, status, attempts)
      .set({ send_token: token, send_beat: sql.lit(0) })
      .where('send_token', '=', seenToken)
      .where('send_beat', '=', seenBeat),
);
const beat = new PreparedQuery(4, (db, shopId: string, code: string, seq: number, token: string) =>
  db
    .updateTable('messaging_deliveries')
    .set((eb) => ({ send_beat: eb('send_beat', '+', sql.lit(1)) }))
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where('seq', '=', seq)
    .where('send_token', '=', token),
);
const sendMark = new PreparedQuery(3, (db, shopId: string, code: string, seq: number) =>
  db
    .selectFrom('messaging_deliveries')
    .select(['status', 'attempts', 'send_token', 'send_beat'])
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where('seq', '=', seq),
);

export async function insertMessage(db: Executor, row: Insertable<MessagingMessagesTable>): Promise<boolean> {
  return (await insertMessageRow.run(db, row)).rows.length > 0;
}

/** Inserts many messages; the codes of those inserted (a message whose idempotency key the shop has is skipped). */
export async function insertMessages(db: Executor, rows: readonly Insertable<MessagingMessagesTable>[]): Promise<Set<string>> {
  const codes = new Set<string>();
  for (let from = 0; from < rows.length; from += INSERT_CHUNK) {
    const inserted = await db
      .insertInto('messaging_messages')
      .values(rows.slice(from, from + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['shop_id', 'idempotency_key']).doNothing())
      .returning('code')
      .execute();
    for (const row of inserted) codes.add(row.code);
  }
  return codes;
}

export async function findMessageByKey(db: Executor, shopId: string, key: string): Promise<MessageRow | undefined> {
  return db
    .selectFrom('messaging_messages')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function findMessage(db: Executor, shopId: string, code: string): Promise<MessageRow | undefined> {
  return db.selectFrom('messaging_messages').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

export async function insertDeliveries(db: Executor, rows: readonly Insertable<MessagingDeliveriesTable>[]): Promise<void> {
  if (rows.length === 1) {
    await insertDeliveryRow.run(db, rows[0]!);
    return;
  }
  for (let from = 0; from < rows.length; from += INSERT_CHUNK) {
    await db
      .insertInto('messaging_deliveries')
      .values(rows.slice(from, from + INSERT_CHUNK))
      .execute();
  }
}

/** Rows per multi-row insert: at most 16 parameters each, well inside SQLite's and PostgreSQL's limits. */
const INSERT_CHUNK = 1_000;

export async function findDelivery(db: Executor, shopId: string, code: string, seq: number): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('messaging_deliveries')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where('seq', '=', seq)
    .executeTakeFirst();
}

/** A delivery with what sending it needs of its message. */
export interface DeliveryToSend extends DeliveryRow {
  readonly message_type: MessageRow['type'];
  readonly mailing_code: string;
  readonly message_test: number;
  readonly variables: string;
  readonly cc: string;
  readonly bcc: string;
}

// Compiled once (db/prepared-query.ts): it runs for every delivery.
const deliveryToSend = new PreparedQuery(3, (db, shopId: string, code: string, seq: number) =>
  db
    .selectFrom('messaging_deliveries as d')
    .innerJoin('messaging_messages as m', (join) => join.onRef('m.shop_id', '=', 'd.shop_id').onRef('m.code', '=', 'd.code'))
    .selectAll('d')
    .select(['m.type as message_type', 'm.mailing_code', 'm.test as message_test', 'm.variables', 'm.cc', 'm.bcc'])
    .where('d.shop_id', '=', shopId)
    .where('d.code', '=', code)
    .where('d.seq', '=', seq),
);

/** A delivery and its message in one read; undefined when either is gone. */
export async function findDeliveryToSend(db: Executor, shopId: string, code: string, seq: number): Promise<DeliveryToSend | undefined> {
  const [row] = await deliveryToSend.execute(db, shopId, code, seq);
  return row;
}

export async function listDeliveriesOf(db: Executor, shopId: string, code: string): Promise<DeliveryRow[]> {
  return db.selectFrom('messaging_deliveries').selectAll().where('shop_id', '=', shopId).where('code', '=', code).orderBy('seq').execute();
}

/** A queued delivery at one attempt count. */
export interface QueuedDeliveryKey {
  readonly shopId: string;
  readonly code: string;
  readonly seq: number;
  readonly attempts: number;
}

/**
 * Moves a queued delivery on and clears its send mark; conditional on its status, attempt
 * count and mark (`token`: the one the caller holds or saw, null for none), so that two
 * runs of one job (a redelivered lease) cannot both record an outcome.
 */
export async function updateQueuedDelivery(
  db: Executor,
  key: QueuedDeliveryKey & { readonly token: string | null },
  values: Updateable<MessagingDeliveriesTable>,
): Promise<boolean> {
  const queued = [key.shopId, key.code, key.seq, 'queued', key.attempts] as const;
  const row = { ...values, send_token: null };
  const result = key.token === null ? await updateUnmarked.run(db, row, ...queued) : await updateMarked.run(db, row, key.token, ...queued);
  return (result.numAffectedRows ?? 0n) > 0n;
}

/** A delivery's send mark as another worker sees it (send-marks.ts). */
export interface SendMarkRow {
  readonly status: DeliveryRow['status'];
  readonly attempts: number;
  readonly send_token: string | null;
  readonly send_beat: number;
}

export async function findSendMark(db: Executor, shopId: string, code: string, seq: number): Promise<SendMarkRow | undefined> {
  const [row] = await sendMark.execute(db, shopId, code, seq);
  return row && { ...row, send_beat: Number(row.send_beat) };
}

/**
 * Marks a queued delivery as being sent under `token`: one conditional update, so that of
 * two runs only one marks it. `seen`: the mark of a sender taken for dead, which this one
 * replaces only if it has not moved since (it beat, or finished, meanwhile); null: the
 * delivery must have no mark.
 */
export async function markSending(
  db: Executor,
  key: QueuedDeliveryKey,
  token: string,
  seen: { readonly token: string; readonly beat: number } | null,
): Promise<boolean> {
  const queued = [key.shopId, key.code, key.seq, 'queued', key.attempts] as const;
  const result = seen ? await markTakenOver.run(db, token, seen.beat, ...queued, seen.token) : await markFree.run(db, token, ...queued);
  return (result.numAffectedRows ?? 0n) > 0n;
}

/** One beat of the sender holding `token`; false when its mark is gone (taken over, or its outcome recorded). */
export async function beatSending(db: Executor, key: Omit<QueuedDeliveryKey, 'attempts'>, token: string): Promise<boolean> {
  const result = await beat.run(db, key.shopId, key.code, key.seq, token);
  return (result.numAffectedRows ?? 0n) > 0n;
}

export async function insertDeadAddress(
  db: Executor,
  row: { shop_id: string; channel: string; address: string; reason: string; created_at: number },
): Promise<void> {
  await db
    .insertInto('messaging_dead_addresses')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'channel', 'address']).doNothing())
    .execute();
}

/** Lists of up to this many addresses (a message's: one per channel) are looked up by a prepared query per length. */
const DEAD_PREPARED_MAX = 8;
const deadAmongFew = new PreparedQueryFamily(
  (size: number) =>
    new PreparedQuery(1 + size, (db, shopId: string, ...addresses: string[]) =>
      db
        .selectFrom('messaging_dead_addresses')
        .select(['channel', 'address'])
        .where('shop_id', '=', shopId)
        .where('address', 'in', addresses),
    ),
);

export async function deadAmong(db: Executor, shopId: string, addresses: readonly string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows =
    addresses.length <= DEAD_PREPARED_MAX
      ? await deadAmongFew.of(addresses.length).execute(db, shopId, ...addresses)
      : await db
          .selectFrom('messaging_dead_addresses')
          .select(['channel', 'address'])
          .where('shop_id', '=', shopId)
          .where('address', 'in', [...addresses])
          .execute();
  return new Set(rows.map((r) => `${r.channel}:${r.address}`));
}

/** The key of a delivery's queued state: the conditions of the updates above. */
export function queuedKeyOf(delivery: DeliveryRow): QueuedDeliveryKey {
  return { shopId: delivery.shop_id, code: delivery.code, seq: delivery.seq, attempts: delivery.attempts };
}
