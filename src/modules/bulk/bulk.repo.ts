import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { BulkMailingsTable, BulkRecipientsTable, Database } from '../../db/types.js';

/** Kysely only: bulk mailings and their recipients. Every query filters by shop_id. */

export type Executor = Kysely<Database> | Transaction<Database>;
export type BulkMailingRow = Selectable<BulkMailingsTable>;
export type RecipientRow = Insertable<BulkRecipientsTable>;

export async function insertMailing(db: Executor, row: Insertable<BulkMailingsTable>): Promise<void> {
  await db.insertInto('bulk_mailings').values(row).execute();
}

export async function findMailing(db: Executor, shopId: string, id: number): Promise<BulkMailingRow | undefined> {
  return db.selectFrom('bulk_mailings').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
}

/** A page of the shop's mailings, newest first, after the id `before` (keyset: the primary key's range). */
export async function listMailings(db: Executor, shopId: string, limit: number, before: number | null): Promise<BulkMailingRow[]> {
  let query = db.selectFrom('bulk_mailings').selectAll().where('shop_id', '=', shopId);
  if (before !== null) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** When the A/B winner is due to be chosen, stored with the decide job. */
export async function setDecideAt(db: Executor, shopId: string, id: number, at: number): Promise<void> {
  await db.updateTable('bulk_mailings').set({ decide_at: at }).where('shop_id', '=', shopId).where('id', '=', id).execute();
}

/**
 * Moves a mailing on from page `page` (its stored count of pages done): conditional on
 * that count, so that of two runs of one page (a redelivered job) one commits.
 */
export async function advance(
  db: Executor,
  shopId: string,
  id: number,
  page: number,
  values: Updateable<BulkMailingsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('bulk_mailings')
    .set(values)
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('pages', '=', page)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** From the A/B wait to sending the rest; conditional on the stage, so one decision commits. */
export async function startRest(db: Executor, shopId: string, id: number, values: Updateable<BulkMailingsTable>): Promise<boolean> {
  const result = await db
    .updateTable('bulk_mailings')
    .set({ ...values, stage: 'rest' })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('stage', '=', 'wait')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The next page of distinct members of the segments after profile `cursor`, in id order. */
export async function memberPage(
  db: Executor,
  shopId: string,
  segmentIds: readonly number[],
  cursor: number,
  limit: number,
): Promise<number[]> {
  if (segmentIds.length === 0) return [];
  const rows = await db
    .selectFrom('segment_members')
    .select('profile_id')
    .distinct()
    .where('shop_id', '=', shopId)
    .where('segment_id', 'in', [...segmentIds])
    .where('profile_id', '>', cursor)
    .orderBy('profile_id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.profile_id));
}

/** The next page of recipients held for the A/B winner after profile `cursor`. */
export async function heldPage(db: Executor, shopId: string, mailingId: number, cursor: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('bulk_recipients')
    .select('profile_id')
    .where('shop_id', '=', shopId)
    .where('mailing_id', '=', mailingId)
    .where('status', '=', 'held')
    .where('profile_id', '>', cursor)
    .orderBy('profile_id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.profile_id));
}

/** Recipients of a members page; one already there (the same profile again) is kept as it was. */
export async function insertRecipients(db: Executor, rows: readonly RecipientRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('bulk_recipients')
    .values([...rows])
    .onConflict((oc) => oc.columns(['shop_id', 'mailing_id', 'profile_id']).doNothing())
    .execute();
}

/** A held recipient's outcome once the winner went out. */
export async function settleHeld(db: Executor, row: RecipientRow): Promise<void> {
  await db
    .updateTable('bulk_recipients')
    .set({ variant: row.variant, status: row.status, reason: row.reason ?? null, code: row.code ?? null })
    .where('shop_id', '=', row.shop_id)
    .where('mailing_id', '=', row.mailing_id)
    .where('profile_id', '=', row.profile_id)
    .where('status', '=', 'held')
    .execute();
}

export interface RecipientCounts {
  readonly held: number;
  readonly skipped: Record<string, number>;
  readonly messaged: number;
  /** Outcomes of the messaged, per (variant, rest) group. */
  readonly groups: readonly GroupOutcome[];
}

/** What became of the messages of one variant, in the test (rest = false) or sent to the rest as the winner. */
export interface GroupOutcome {
  readonly variant: string;
  readonly rest: boolean;
  readonly messaged: number;
  /** A delivery went out on at least one channel. */
  readonly sent: number;
  /** Every delivery failed. */
  readonly failed: number;
  /** Sent, and every sent delivery bounced (hard or soft). */
  readonly bounced: number;
  readonly opened: number;
  readonly clicked: number;
  readonly unsubscribed: number;
  /** Messages with a purchase attributed (docs/messaging.md, "Tracking"). */
  readonly purchases: number;
  /** Minor units: the attributed purchases' revenue. */
  readonly revenue: number;
}

/**
 * What became of a mailing's recipients: held and skipped (by reason) from the rows,
 * and the outcomes of the messaged per variant from their deliveries. Reads only the
 * mailing's own rows: bulk_recipients by its primary key (shop_id, mailing_id, …) and
 * each recipient's deliveries by theirs (shop_id, code, seq).
 */
export async function countRecipients(db: Executor, shopId: string, mailingId: number): Promise<RecipientCounts> {
  const groups = await db
    .selectFrom('bulk_recipients')
    .select(['status', 'reason', (eb) => eb.fn.countAll().as('n')])
    .where('shop_id', '=', shopId)
    .where('mailing_id', '=', mailingId)
    .groupBy(['status', 'reason'])
    .execute();
  let held = 0;
  let messaged = 0;
  const skipped: Record<string, number> = {};
  for (const g of groups) {
    const n = Number(g.n);
    if (g.status === 'held') held += n;
    else if (g.status === 'messaged') messaged += n;
    else skipped[g.reason ?? 'unreachable'] = (skipped[g.reason ?? 'unreachable'] ?? 0) + n;
  }
  const flag = (column: string) => sql`max(case when ${sql.ref(`d.${column}`)} is not null then 1 else 0 end)`;
  const outcome = await sql<Record<string, number | string | null>>`
    select t.variant, t.rest, count(*) as messaged,
           sum(case when t.sent_n > 0 then 1 else 0 end) as sent,
           sum(case when t.sent_n = 0 and t.queued_n = 0 then 1 else 0 end) as failed,
           sum(case when t.sent_n > 0 and t.bounced_n = t.sent_n then 1 else 0 end) as bounced,
           sum(t.opened) as opened, sum(t.clicked) as clicked, sum(t.unsubscribed) as unsubscribed,
           sum(t.purchased) as purchases, sum(t.revenue) as revenue
    from (
      select r.variant, r.rest, r.code,
             sum(case when d.status = 'sent' then 1 else 0 end) as sent_n,
             sum(case when d.status = 'queued' then 1 else 0 end) as queued_n,
             sum(case when d.status = 'sent' and (d.hard_bounced_at is not null or d.soft_bounced_at is not null) then 1 else 0 end) as bounced_n,
             ${flag('opened_at')} as opened, ${flag('clicked_at')} as clicked, ${flag('unsubscribed_at')} as unsubscribed,
             ${flag('purchased_at')} as purchased,
             max(coalesce(d.purchase_value, 0)) as revenue
      from bulk_recipients r
      join messaging_deliveries d on d.shop_id = r.shop_id and d.code = r.code
      where r.shop_id = ${shopId} and r.mailing_id = ${mailingId} and r.status = 'messaged'
      group by r.variant, r.rest, r.code
    ) t
    group by t.variant, t.rest
    order by t.rest, t.variant`.execute(db);
  const n = (row: Record<string, unknown>, key: string) => Number(row[key] ?? 0);
  return {
    held,
    skipped,
    messaged,
    groups: outcome.rows.map((row) => ({
      variant: String(row.variant ?? ''),
      rest: n(row, 'rest') === 1,
      messaged: n(row, 'messaged'),
      sent: n(row, 'sent'),
      failed: n(row, 'failed'),
      bounced: n(row, 'bounced'),
      opened: n(row, 'opened'),
      clicked: n(row, 'clicked'),
      unsubscribed: n(row, 'unsubscribed'),
      purchases: n(row, 'purchases'),
      revenue: n(row, 'revenue'),
    })),
  };
}
