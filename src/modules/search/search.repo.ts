import { sql, type Kysely } from 'kysely';
import { productMatchesSql, type Dialect, type SearchTerm } from '../../db/dialect.js';
import type { Database } from '../../db/types.js';
import type { ProductRecord } from '../catalog/domain/product-view.js';
import { toProductRecord, type ProductRow } from '../catalog/products.repo.js';
import type { NoResultQuery, SearchLogEntry } from './domain/search-log.js';

/**
 * Search's SQL: the ranked match over the served catalog (the dialect-specific parts come
 * from db/dialect.ts) and the search log. Rows in, rows out.
 */
export type Executor = Kysely<Database>;

export interface ProductMatches {
  /** Every product that matches, beyond the returned page. */
  readonly total: number;
  /** The best `limit` matches, best first; equal ranks by offer id. */
  readonly products: ProductRecord[];
}

/**
 * One statement: the matches (keys and ranks, from db/dialect.ts), the best `limit` of
 * them with the count of all (a window count runs before LIMIT), and their rows. The
 * matches are materialised so that the shop and generation conditions stay outside them:
 * inside, PostgreSQL could read a new generation (no statistics yet) through a btree
 * index on (shop_id, generation) and test every row instead of asking the GIN index.
 * The rows are joined on the keys of `best` alone, so that SQLite looks them up by
 * primary key instead of scanning the generation for them. `terms` must not be empty.
 */
export async function findMatchingProducts(
  db: Executor,
  dialect: Dialect,
  scope: { readonly shopId: string; readonly generation: number },
  terms: readonly SearchTerm[],
  limit: number,
): Promise<ProductMatches> {
  const { shopId, generation } = scope;
  const { rows } = await sql<ProductRow & { search_total: number | string }>`
    with matched as materialized (${productMatchesSql(dialect, scope, terms)}),
    best as (
      select shop_id, generation, id, search_rank, count(*) over () as search_total from matched
      where shop_id = ${shopId} and generation = ${generation}
      order by search_rank, id
      limit ${limit}
    )
    select p.*, best.search_total from best
    join catalog_products p on p.shop_id = best.shop_id and p.generation = best.generation and p.id = best.id
    order by best.search_rank, best.id`.execute(db);
  return {
    total: rows.length === 0 ? 0 : Number(rows[0]!.search_total),
    products: rows.map(toProductRecord),
  };
}

/**
 * Inserts one log row. A pushed event already logged (a redelivered job) inserts nothing
 * and answers false. A colliding random id throws a unique violation: the caller retries.
 */
export async function insertSearchLogEntry(db: Executor, id: number, entry: SearchLogEntry): Promise<boolean> {
  const row = {
    shop_id: entry.shopId,
    id,
    time: entry.time,
    query: entry.query,
    type: entry.type,
    results: entry.results,
    did: entry.did,
    sid: entry.sid,
    event_id: entry.eventId,
  };
  const insert = db.insertInto('search_queries').values(row);
  if (entry.eventId === null) {
    await insert.execute();
    return true;
  }
  const result = await insert.onConflict((oc) => oc.columns(['shop_id', 'event_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Deletes the shop's log rows older than `before` (exclusive). */
export async function pruneSearchLog(db: Executor, shopId: string, before: number): Promise<number> {
  const result = await db
    .deleteFrom('search_queries')
    .where('shop_id', '=', shopId)
    .where('time', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The full searches since `since` that found nothing, grouped by query: most frequent
 * first, then by query. The conditions restate the partial index's (migration 0007).
 */
export async function listNoResultQueries(
  db: Executor,
  shopId: string,
  since: number,
  limit: number,
): Promise<NoResultQuery[]> {
  const rows = await db
    .selectFrom('search_queries')
    .select(['query', (eb) => eb.fn.countAll<number | string>().as('quantity')])
    .where('shop_id', '=', shopId)
    // Literals, so that PostgreSQL proves the partial index applies whatever the plan.
    .where('type', '=', sql.lit('full_search'))
    .where('results', '=', sql.lit(0))
    .where('time', '>=', since)
    .groupBy('query')
    .orderBy('quantity', 'desc')
    .orderBy('query')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ query: row.query, quantity: Number(row.quantity) }));
}
