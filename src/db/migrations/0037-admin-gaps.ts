import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The admin UI's remaining reads (docs/admin-lists.md):
 * - certificates (shop_id, pool_id, id): one pool's certificates, newest first, as a range.
 * - admin_sessions.public_id: the id the account screen shows and revokes a session by.
 *   Random and unrelated to the cookie's id (whose hash keys the row), so that listing
 *   sessions reveals nothing that signs in; the sessions of before are given one here.
 * - catalog_product_categories (shop_id, generation, category_id, product_id): each product
 *   under each category it lists directly, written by the feed import with the products
 *   (same transaction) and deleted with their generation. The product browser's category
 *   filter reads one range of it in offer-id order instead of testing every product's
 *   category_ids. Filled here from the products already stored, a batch at a time.
 */
export function adminGaps(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('certificates_pool_idx').on('certificates').columns(['shop_id', 'pool_id', 'id']).execute();

      await db.schema.alterTable('admin_sessions').addColumn('public_id', 'text').execute();
      const { rows } = await sql<{ id_hash: string }>`select id_hash from admin_sessions`.execute(db);
      for (const row of rows) {
        const publicId = crypto.randomBytes(16).toString('base64url');
        await sql`update admin_sessions set public_id = ${publicId} where id_hash = ${row.id_hash}`.execute(db);
      }
      await db.schema.createIndex('admin_sessions_public_id').on('admin_sessions').columns(['public_id']).unique().execute();

      await db.schema
        .createTable('catalog_product_categories')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('generation', 'bigint', (c) => c.notNull())
        .addColumn('category_id', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_product_categories_pk', ['shop_id', 'generation', 'category_id', 'product_id'])
        .execute();
      await backfillProductCategories(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('catalog_product_categories').execute();
      await db.schema.dropIndex('admin_sessions_public_id').execute();
      await db.schema.alterTable('admin_sessions').dropColumn('public_id').execute();
      await db.schema.dropIndex('certificates_pool_idx').execute();
    },
  };
}

const BACKFILL_BATCH = 2_000;
/** Rows per insert: 4 parameters each, far under either database's limit. */
const INSERT_ROWS = 1_000;

interface ProductKey {
  shop_id: string;
  generation: number;
  id: string;
}

/** The category rows of every stored product, read in key order a batch at a time. */
async function backfillProductCategories(db: Kysely<unknown>): Promise<void> {
  let after: ProductKey | undefined;
  for (;;) {
    const from =
      after === undefined
        ? sql``
        : sql`where shop_id > ${after.shop_id} or (shop_id = ${after.shop_id} and (generation > ${after.generation}
            or (generation = ${after.generation} and id > ${after.id})))`;
    const { rows } = await sql<ProductKey & { category_ids: string }>`
      select shop_id, generation, id, category_ids from catalog_products ${from}
      order by shop_id, generation, id limit ${BACKFILL_BATCH}`.execute(db);
    const pairs: Array<[string, number, string, string]> = [];
    for (const row of rows) {
      for (const category of new Set(parseIds(row.category_ids))) pairs.push([row.shop_id, Number(row.generation), category, row.id]);
    }
    for (let i = 0; i < pairs.length; i += INSERT_ROWS) {
      const values = pairs.slice(i, i + INSERT_ROWS).map((p) => sql`(${p[0]}, ${p[1]}, ${p[2]}, ${p[3]})`);
      await sql`insert into catalog_product_categories (shop_id, generation, category_id, product_id) values ${sql.join(values)}`.execute(
        db,
      );
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < BACKFILL_BATCH) return;
    after = { shop_id: last.shop_id, generation: Number(last.generation), id: last.id };
  }
}

function parseIds(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
