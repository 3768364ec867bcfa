import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { toFlag } from '../../db/dialect.js';
import type { Executor, ProductRow } from './products.repo.js';

/**
 * The admin UI's catalog lists (docs/admin-lists.md). Kysely only. Each statement names
 * the shop and the served generation, reads in the order of an index whose leading
 * columns it fixes (migration 0036) and stops at `limit` rows, after the given key.
 */

export interface ProductBrowseFilter {
  /** An offer id (exact) or a part of the name (case-insensitive for Latin letters). */
  readonly query?: string | undefined;
  /** A feed category id: products listed directly in it. */
  readonly category?: string | undefined;
  readonly available?: boolean | undefined;
}

/**
 * Products of the generation by offer id, after `afterId`; `limit` rows at most. With a
 * category, the walk is the category's range of catalog_product_categories (0037) in
 * offer-id order, each row joined to its product by key; without, the products' own key.
 */
export async function browseProducts(
  db: Executor,
  shopId: string,
  generation: number,
  filter: ProductBrowseFilter,
  afterId: string | null,
  limit: number,
): Promise<ProductRow[]> {
  if (filter.category !== undefined) {
    let query = db
      .selectFrom('catalog_product_categories as pc')
      .innerJoin('catalog_products as p', (join) =>
        join.onRef('p.shop_id', '=', 'pc.shop_id').onRef('p.generation', '=', 'pc.generation').onRef('p.id', '=', 'pc.product_id'),
      )
      .selectAll('p')
      .where('pc.shop_id', '=', shopId)
      .where('pc.generation', '=', generation)
      .where('pc.category_id', '=', filter.category);
    if (afterId !== null) query = query.where('pc.product_id', '>', afterId);
    if (filter.available !== undefined) query = query.where('p.available', '=', toFlag(filter.available));
    const text = filter.query;
    if (text !== undefined) query = query.where((eb) => eb.or([eb('p.id', '=', text), nameContains('p.name', text)]));
    return query.orderBy('pc.product_id').limit(limit).execute();
  }
  let query = db.selectFrom('catalog_products').selectAll().where('shop_id', '=', shopId).where('generation', '=', generation);
  if (filter.available !== undefined) query = query.where('available', '=', toFlag(filter.available));
  if (afterId !== null) query = query.where('id', '>', afterId);
  const text = filter.query;
  if (text !== undefined) query = query.where((eb) => eb.or([eb('id', '=', text), nameContains('name', text)]));
  return query.orderBy('id').limit(limit).execute();
}

/** The name holds `text`, Latin letters in any case (SQLite's lower() folds those only). */
function nameContains(column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${likeLiteral(text.toLowerCase())}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** Hidden (not widgetable) products of the generation by offer id, after `afterId`. */
export async function listHiddenProducts(
  db: Executor,
  shopId: string,
  generation: number,
  afterId: string | null,
  limit: number,
): Promise<ProductRow[]> {
  let query = db
    .selectFrom('catalog_products')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('widgetable', '=', 0);
  if (afterId !== null) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

export interface CategoryChildRow {
  readonly id: number;
  readonly externalId: string;
  readonly parentExternalId: string | null;
  readonly name: string;
  readonly url: string | null;
  readonly level: number;
  readonly productCount: number;
  readonly hasChildren: boolean;
}

/** The children of a category (null: the top level), by stable id, after `afterId`. */
export async function listCategoryChildren(
  db: Executor,
  shopId: string,
  generation: number,
  parent: string | null,
  afterId: number | null,
  limit: number,
): Promise<CategoryChildRow[]> {
  let query = db
    .selectFrom('catalog_categories as c')
    .select(['c.id', 'c.external_id', 'c.parent_external_id', 'c.name', 'c.url', 'c.level', 'c.product_count'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('catalog_categories as k')
            .select(sql.lit(1).as('one'))
            .where('k.shop_id', '=', shopId)
            .where('k.generation', '=', generation)
            .whereRef('k.parent_external_id', '=', 'c.external_id'),
        )
        .as('has_children'),
    )
    .where('c.shop_id', '=', shopId)
    .where('c.generation', '=', generation)
    .where('c.parent_external_id', parent === null ? 'is' : '=', parent);
  if (afterId !== null) query = query.where('c.id', '>', afterId);
  const rows = await query.orderBy('c.id').limit(limit).execute();
  return rows.map((row) => ({
    id: Number(row.id),
    externalId: row.external_id,
    parentExternalId: row.parent_external_id,
    name: row.name,
    url: row.url,
    level: Number(row.level),
    productCount: Number(row.product_count),
    hasChildren: Boolean(Number(row.has_children)),
  }));
}

/** A category of the generation by its feed id. */
export async function findCategory(db: Executor, shopId: string, generation: number, externalId: string): Promise<boolean> {
  const row = await db
    .selectFrom('catalog_categories')
    .select('id')
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Text matched literally inside a LIKE pattern whose escape character is a backslash. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
