import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { PreparedRowQuery } from '../../db/prepared-query.js';
import type { AuditLogTable, Database } from '../../db/types.js';

/** Kysely only: rows of the audit log in and out. */

export type AuditRow = Selectable<AuditLogTable>;
export type Executor = Kysely<Database> | Transaction<Database>;

// Compiled once per shape (db/prepared-query.ts): an entry is written with every admin write, data writes included.
const insertEntryQuery = new PreparedRowQuery(0, (db, row: Insertable<AuditLogTable>) => db.insertInto('audit_log').values(row));

export async function insertEntry(db: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await insertEntryQuery.run(db, row);
}

export interface EntryFilter {
  readonly shopId?: string;
  /** Only entries of these shops (a user limited to some shops): never those of no shop. */
  readonly shops?: readonly string[];
  readonly userId?: number;
  /** An exact action, or with `actionPrefix` every action that starts with it. */
  readonly action?: string;
  readonly actionPrefix?: boolean;
  /** Keyset: entries older than this id. */
  readonly beforeId?: number;
  readonly limit: number;
}

/** Newest first, by id: each filter has its index (shop_id, id), (actor_user_id, id), or the key itself. */
export async function listEntries(db: Executor, filter: EntryFilter): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.shopId !== undefined) query = query.where('shop_id', '=', filter.shopId);
  if (filter.shops !== undefined) {
    if (filter.shops.length === 0) return [];
    query = query.where('shop_id', 'in', [...filter.shops]);
  }
  if (filter.userId !== undefined) query = query.where('actor_user_id', '=', filter.userId);
  if (filter.action !== undefined) {
    const action = filter.action;
    // substr rather than LIKE: `_` is a LIKE wildcard, and both dialects count characters alike here (ASCII names).
    query = filter.actionPrefix
      ? query.where(sql<string>`substr(action, 1, ${action.length})`, '=', action)
      : query.where('action', '=', action);
  }
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}

/** Deletes up to `batch` entries older than `cutoff`, oldest first; answers how many went. */
export async function deleteOlderThan(db: Executor, cutoff: number, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_log')
    .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('at', '<', cutoff).orderBy('at').limit(batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
