import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './types.js';

/** The per-shop counter tables: `(shop_id[, kind column], last_id)`, the key leading with shop_id. */
export type ShopSequenceTable =
  | 'audience_sequences'
  | 'messaging_sequences'
  | 'nps_review_sequences'
  | 'popup_sequences'
  | 'promotion_sequences'
  | 'recommendation_sequences'
  | 'story_sequences';

/** Which counter of a table that holds several: its key column and value (`kind = 'blocks'`). */
export interface SequenceKind {
  readonly column: 'kind' | 'name';
  readonly value: string;
}

/**
 * Takes `count` numbers of a shop's counter in one upsert and answers the last of them:
 * the first call makes the row, later ones add to it. No read comes before the write, and
 * the row stays locked until the caller's transaction ends, so two writers never take the
 * same number (SQLite and PostgreSQL alike: `excluded` and `returning` are in both).
 */
export async function takeShopSequence(
  db: Kysely<Database> | Transaction<Database>,
  table: ShopSequenceTable,
  shopId: string,
  kind: SequenceKind | null,
  count = 1,
): Promise<number> {
  const keyColumns = kind ? sql`shop_id, ${sql.ref(kind.column)}` : sql`shop_id`;
  const keyValues = kind ? sql`${shopId}, ${kind.value}` : sql`${shopId}`;
  const result = await sql<{ last_id: number | string }>`
    insert into ${sql.table(table)} (${keyColumns}, last_id) values (${keyValues}, ${count})
    on conflict (${keyColumns}) do update set last_id = ${sql.ref(`${table}.last_id`)} + excluded.last_id
    returning last_id`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error(`The ${table} counter returned no row`);
  return Number(row.last_id);
}
