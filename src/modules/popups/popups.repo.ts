import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, PopupsTable } from '../../db/types.js';
import { takeShopSequence } from '../../db/sequences.js';

/** Kysely only: rows in, rows out. Every statement is scoped by shop_id. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type PopupRow = Selectable<PopupsTable>;
export type PopupValues = Omit<Insertable<PopupsTable>, 'shop_id' | 'id' | 'created_at' | 'updated_at'>;

/** The next per-shop popup id, in one upsert (no read before the write). */
export async function nextId(db: Executor, shopId: string): Promise<number> {
  return takeShopSequence(db, 'popup_sequences', shopId, null);
}

export async function insertPopup(db: Executor, row: Insertable<PopupsTable>): Promise<PopupRow> {
  return db.insertInto('popups').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updatePopup(
  db: Executor,
  shopId: string,
  id: number,
  values: Omit<Updateable<PopupsTable>, 'shop_id' | 'id' | 'created_at'>,
): Promise<PopupRow | undefined> {
  return db.updateTable('popups').set(values).where('shop_id', '=', shopId).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function findPopup(db: Executor, shopId: string, id: number): Promise<PopupRow | undefined> {
  return db.selectFrom('popups').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
}

export async function listPopups(db: Executor, shopId: string): Promise<PopupRow[]> {
  return db.selectFrom('popups').selectAll().where('shop_id', '=', shopId).orderBy('id', 'desc').execute();
}

/** The shop's active popups whose schedule has not ended: what the offers cache holds. */
export async function listActivePopups(db: Executor, shopId: string, now: number): Promise<PopupRow[]> {
  return db
    .selectFrom('popups')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
    .orderBy('id')
    .execute();
}

export async function deletePopup(db: Executor, shopId: string, id: number): Promise<boolean> {
  const result = await db.deleteFrom('popups').where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

type MarkTable = 'popup_shows' | 'popup_clicks';

/**
 * Marks the popup shown to (or clicked by) the device, once: the unique key (shop, popup,
 * device) makes a repeated report a no-op. 'unknown' when the shop has no such popup.
 */
export async function markDevice(
  db: Executor,
  table: MarkTable,
  row: { shop_id: string; popup_id: number; did: string; created_at: number },
): Promise<'marked' | 'already' | 'unknown'> {
  if (!(await findPopup(db, row.shop_id, row.popup_id))) return 'unknown';
  const inserted = await db
    .insertInto(table)
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'popup_id', 'did']).doNothing())
    .returning('did')
    .executeTakeFirst();
  return inserted ? 'marked' : 'already';
}

/** Which of these popups the device was shown. */
export async function shownAmong(db: Executor, shopId: string, did: string, popupIds: readonly number[]): Promise<Set<number>> {
  if (popupIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('popup_shows')
    .select('popup_id')
    .where('shop_id', '=', shopId)
    .where('did', '=', did)
    .where('popup_id', 'in', [...popupIds])
    .execute();
  return new Set(rows.map((r) => Number(r.popup_id)));
}

/**
 * Records an offer of the popup to the device unless one was made after `notBefore`: one
 * conditional upsert, so that of two requests of a device at once only one gets a popup.
 * True when this offer was recorded.
 */
export async function claimOffer(
  db: Executor,
  row: { shop_id: string; did: string; popup_id: number; offered_at: number },
  notBefore: number,
): Promise<boolean> {
  const claimed = await db
    .insertInto('popup_offers')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['shop_id', 'did'])
        .doUpdateSet({ popup_id: row.popup_id, offered_at: row.offered_at })
        .where('popup_offers.offered_at', '<=', notBefore),
    )
    .returning('did')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Devices shown and devices that clicked, per popup of the shop (those with none are absent). */
export async function countMarks(
  db: Executor,
  table: MarkTable,
  shopId: string,
  popupIds?: readonly number[],
): Promise<Map<number, number>> {
  let query = db
    .selectFrom(table)
    .select(['popup_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('shop_id', '=', shopId)
    .groupBy('popup_id');
  if (popupIds) {
    if (popupIds.length === 0) return new Map();
    query = query.where('popup_id', 'in', [...popupIds]);
  }
  const rows = await query.execute();
  return new Map(rows.map((r) => [Number(r.popup_id), Number(r.n)]));
}
