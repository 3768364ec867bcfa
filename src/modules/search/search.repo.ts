import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import { productMatchesSql, type SearchTerm } from '../../db/search-index.js';
import type { Database } from '../../db/types.js';
import type { NoResultQuery, SearchLogEntry } from './domain/search-log.js';

/**
 * Search's SQL: the ranked match over the served catalog (the dialect-specific parts come
 * from db/search-index.ts) and the search log. Rows in, rows out.
 */
export type Executor = Kysely<Database>;

export interface RankedMatches {
  /** Every product that matches, beyond the ids returned. */
  readonly total: number;
  /** The best matches' offer ids, best first; equal ranks by offer id. */
  readonly ids: string[];
}

/**
 * One statement: the matches (keys and ranks, from db/search-index.ts), the count of all (a
 * window count runs before LIMIT) and the offer ids of the best `max`. The matches are
 * materialised so that the shop and generation conditions stay outside them: inside,
 * PostgreSQL could read a new generation (no statistics yet) through a btree index on
 * (shop_id, generation) and test every row instead of asking the GIN index. Only ids
 * leave the database: the filters, facets and the page are the listing's
 * (modules/catalog/listing.service.ts), which reads the page's rows by key. `terms` must
 * not be empty.
 */
export async function findRankedMatches(
  db: Executor,
  dialect: Dialect,
  scope: { readonly shopId: string; readonly generation: number },
  terms: readonly SearchTerm[],
  max: number,
): Promise<RankedMatches> {
  const { shopId, generation } = scope;
  const { rows } = await sql<{ id: string; search_total: number | string }>`
    with matched as materialized (${productMatchesSql(dialect, scope, terms)})
    select id, count(*) over () as search_total from matched
    where shop_id = ${shopId} and generation = ${generation}
    order by search_rank, id
    limit ${max}`.execute(db);
  return { total: rows.length === 0 ? 0 : Number(rows[0]!.search_total), ids: rows.map((row) => row.id) };
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
  const result = await db.deleteFrom('search_queries').where('shop_id', '=', shopId).where('time', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The full searches since `since` that found nothing, grouped by query: most frequent
 * first, then by query. The conditions restate the partial index's (migration 0007).
 */
export async function listNoResultQueries(db: Executor, shopId: string, since: number, limit: number): Promise<NoResultQuery[]> {
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

/** Types of the queries a user submitted: full searches, and the search events of POST /push. */
const SUBMITTED_TYPES = ['full_search', 'push'] as const;

/**
 * The queries submitted since `since` that found something (or whose count is unknown:
 * a pushed event), most frequent first, then by query (migration 0015's index).
 */
export async function listPopularQueries(db: Executor, shopId: string, since: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('search_queries')
    .select(['query', (eb) => eb.fn.countAll<number | string>().as('quantity')])
    .where('shop_id', '=', shopId)
    .where('type', 'in', [...SUBMITTED_TYPES])
    .where('time', '>=', since)
    .where((eb) => eb.or([eb('results', 'is', null), eb('results', '>', 0)]))
    .groupBy('query')
    .orderBy('quantity', 'desc')
    .orderBy('query')
    .limit(limit)
    .execute();
  return rows.map((row) => row.query);
}

/** A device's distinct queries submitted since `since`, newest first. */
export async function listDeviceQueries(db: Executor, shopId: string, did: string, since: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('search_queries')
    .select(['query', (eb) => eb.fn.max('time').as('last')])
    .where('shop_id', '=', shopId)
    .where('did', '=', did)
    .where('type', 'in', [...SUBMITTED_TYPES])
    .where('time', '>=', since)
    .groupBy('query')
    .orderBy('last', 'desc')
    .orderBy('query')
    .limit(limit)
    .execute();
  return rows.map((row) => row.query);
}
