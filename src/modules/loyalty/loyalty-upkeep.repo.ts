import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Executor } from './loyalty.repo.js';

/**
 * The upkeep's reads of due lots and its chain row (docs/loyalty.md, "Upkeep"). The due
 * reads match the partial indexes of migration 0017 word for word, with literals rather
 * than parameters, so that both databases know the index applies: they read the lots due
 * and never the others.
 */

export interface DueLot {
  readonly id: number;
  readonly profileId: number;
  /** The instant the lot became due (its confirms_at or expires_at): the read's key with the id. */
  readonly dueAt: number;
}

export interface DueKey {
  readonly dueAt: number;
  readonly id: number;
}

/** Pending lots whose confirms_at has come, in (confirms_at, id) order after `after`. */
export async function listDueConfirms(db: Executor, shopId: string, now: number, after: DueKey | null, limit: number): Promise<DueLot[]> {
  let query = db
    .selectFrom('loyalty_lots')
    .select(['id', 'profile_id', 'confirms_at'])
    .where('shop_id', '=', shopId)
    .where('status', '=', sql.lit('pending'))
    .where('confirms_at', '<=', now);
  if (after) query = query.where((eb) => eb(eb.refTuple('confirms_at', 'id'), '>', eb.tuple(after.dueAt, after.id)));
  const rows = await query.orderBy('confirms_at').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), profileId: Number(r.profile_id), dueAt: Number(r.confirms_at) }));
}

/** Lots with something left whose expires_at has come, in (expires_at, id) order after `after`. */
export async function listDueExpiries(db: Executor, shopId: string, now: number, after: DueKey | null, limit: number): Promise<DueLot[]> {
  let query = db
    .selectFrom('loyalty_lots')
    .select(['id', 'profile_id', 'expires_at'])
    .where('shop_id', '=', shopId)
    .where(sql<boolean>`remaining > 0 and expires_at is not null`)
    .where('expires_at', '<=', now);
  if (after) query = query.where((eb) => eb(eb.refTuple('expires_at', 'id'), '>', eb.tuple(after.dueAt, after.id)));
  const rows = await query.orderBy('expires_at').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), profileId: Number(r.profile_id), dueAt: Number(r.expires_at) }));
}

/** The shop's earliest due instant: the first confirms_at of a pending lot or expires_at of a lot with something left. */
export async function findEarliestDue(db: Executor, shopId: string): Promise<number | null> {
  const confirm = await db
    .selectFrom('loyalty_lots')
    .select((eb) => eb.fn.min('confirms_at').as('at'))
    .where('shop_id', '=', shopId)
    .where('status', '=', sql.lit('pending'))
    .where('confirms_at', 'is not', null)
    .executeTakeFirst();
  const expiry = await db
    .selectFrom('loyalty_lots')
    .select((eb) => eb.fn.min('expires_at').as('at'))
    .where('shop_id', '=', shopId)
    .where(sql<boolean>`remaining > 0 and expires_at is not null`)
    .executeTakeFirst();
  const instants = [confirm?.at, expiry?.at].filter((at) => at !== null && at !== undefined).map(Number);
  return instants.length === 0 ? null : Math.min(...instants);
}

export async function hasActiveHolds(db: Executor, shopId: string): Promise<boolean> {
  const row = await db
    .selectFrom('loyalty_holds')
    .select('id')
    .where('shop_id', '=', shopId)
    .where('status', '=', sql.lit('active'))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Shops with a lot the sweep will have to look at some day (a pending lot with confirms_at, or a lot that expires). */
export async function listShopsWithDueLots(db: Executor): Promise<string[]> {
  const pending = db
    .selectFrom('loyalty_lots')
    .select('shop_id')
    .where('status', '=', sql.lit('pending'))
    .where('confirms_at', 'is not', null);
  const expiring = db.selectFrom('loyalty_lots').select('shop_id').where(sql<boolean>`remaining > 0 and expires_at is not null`);
  // UNION (not UNION ALL) gives each shop once.
  const rows = await pending.union(expiring).execute();
  return rows.map((r) => r.shop_id);
}

export async function findNextSweep(db: Executor, shopId: string): Promise<number | null> {
  const row = await db.selectFrom('loyalty_upkeep').select('next_sweep_at').where('shop_id', '=', shopId).executeTakeFirst();
  return row?.next_sweep_at == null ? null : Number(row.next_sweep_at);
}

/**
 * Makes `at` the shop's next link if it has none or a later one: one conditional upsert,
 * so that concurrent callers agree on one chain. True when `at` became the next link.
 */
export async function claimNextSweep(trx: Transaction<Database>, shopId: string, at: number, now: number): Promise<boolean> {
  const result = await trx
    .insertInto('loyalty_upkeep')
    .values({ shop_id: shopId, next_sweep_at: at, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('shop_id')
        .doUpdateSet({ next_sweep_at: at, updated_at: now })
        .where((eb) => eb.or([eb('loyalty_upkeep.next_sweep_at', 'is', null), eb('loyalty_upkeep.next_sweep_at', '>', at)])),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Moves the next link from `from` to `to` (null: the chain ends); false when `from` was no longer the next link. */
export async function moveNextSweep(trx: Executor, shopId: string, from: number, to: number | null, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('loyalty_upkeep')
    .set({ next_sweep_at: to, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('next_sweep_at', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
