import type { Kysely, Selectable } from 'kysely';
import { fromFlag } from '../../db/dialect.js';
import { PreparedQuery, PreparedQueryFamily } from '../../db/prepared-query.js';
import { inListSlices, MAX_IN_LIST } from '../../db/statement-slices.js';
import type { CatalogProductsTable, Database, ProductImagesTable } from '../../db/types.js';
import type { TreeCategoryRecord } from './domain/category-tree.js';
import type { CategoryRecord, LocationRecord, ProductRecord } from './domain/product-view.js';
import type { ProductParam } from './domain/product.schema.js';

/**
 * Reads of the served catalog (GET /products/…, search results). Kysely only: rows in,
 * rows out, JSON columns parsed here. Every statement names the shop and the generation
 * the caller read from `catalogs`, so a reader never mixes two imports.
 */
export type Executor = Kysely<Database>;
export type ProductRow = Selectable<CatalogProductsTable>;

/**
 * Which of these offer ids the generation `catalogs` serves at that moment has: one
 * statement per padded IN list that reads the primary-key index only (GET
 * /products/counters).
 */
const servedProductIds = new PreparedQueryFamily(
  (size: number) =>
    new PreparedQuery(1 + size, (db, shopId: string, ...itemIds: string[]) => servedRows(db, shopId, itemIds).select('p.id')),
);

export async function findServedProductIds(db: Executor, shopId: string, itemIds: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const slice of inListSlices([...new Set(itemIds)])) {
    for (const row of await servedProductIds.of(slice.length).execute(db, shopId, ...slice)) found.add(row.id);
  }
  return found;
}

/** A product of the served generation, with what the images module knows of its first picture. */
export interface ServedProduct {
  readonly generation: number;
  readonly product: ProductRecord;
  /**
   * The first picture's `product_images` row, read by the same statement; null when there
   * is none (a pending download or an unknown link). Undefined when the product has no
   * picture, or was staged before picture_hash existed so the statement could not look.
   */
  readonly picture: PictureState | null | undefined;
}

export interface PictureState {
  readonly hash: string;
  readonly status: ProductImagesTable['status'];
  readonly error: string | null;
}

/**
 * GET /products/get's read, one statement for a batch of offer ids of one shop: the
 * products in the generation `catalogs` serves at that moment (so a landing is seen whole
 * or not at all, with no read of the generation apart), each with its first picture's row
 * (joined on the hash the import stored; product_images belongs to the images module and
 * is only read here).
 *
 * One prepared text per IN list size, a power of two (db/statement-slices.ts pads the
 * list by repeating its last id), so that a handful of texts serve every batch (each
 * parsed and planned once per connection on PostgreSQL, kept in SQLite's statement cache).
 */

const servedProducts = new PreparedQueryFamily(
  (size: number) =>
    new PreparedQuery(1 + size, (db, shopId: string, ...itemIds: string[]) =>
      servedRows(db, shopId, itemIds)
        .leftJoin('product_images as i', (join) => join.onRef('i.shop_id', '=', 'p.shop_id').onRef('i.link_hash', '=', 'p.picture_hash'))
        .selectAll('p')
        .select(['i.status as picture_status', 'i.error as picture_error']),
    ),
);

/**
 * The products of these ids (`p`) in the generation `catalogs` (`c`) serves at the
 * moment the statement runs: one statement sees a landing whole or not at all.
 */
function servedRows(db: Executor, shopId: string, itemIds: readonly string[]) {
  return db
    .selectFrom('catalogs as c')
    .innerJoin('catalog_products as p', (join) => join.onRef('p.shop_id', '=', 'c.shop_id').onRef('p.generation', '=', 'c.generation'))
    .where('c.shop_id', '=', shopId)
    .where('p.id', 'in', itemIds);
}

/**
 * The served products of these ids, by id; an id the served generation lacks is absent.
 * At most MAX_IN_LIST ids, so that one statement reads them all, from one generation.
 */
export async function findServedProducts(db: Executor, shopId: string, itemIds: readonly string[]): Promise<Map<string, ServedProduct>> {
  const distinct = [...new Set(itemIds)];
  if (distinct.length > MAX_IN_LIST) throw new RangeError(`at most ${MAX_IN_LIST} ids per read`);
  const out = new Map<string, ServedProduct>();
  for (const slice of inListSlices(distinct)) {
    for (const row of await servedProducts.of(slice.length).execute(db, shopId, ...slice)) {
      const hash = row.picture_hash;
      const picture =
        hash === null ? undefined : row.picture_status === null ? null : { hash, status: row.picture_status, error: row.picture_error };
      out.set(row.id, { generation: Number(row.generation), product: toProductRecord(row), picture });
    }
  }
  return out;
}

/** The products of these ids that the generation holds, in no particular order. */
export async function findProducts(db: Executor, shopId: string, generation: number, itemIds: readonly string[]): Promise<ProductRecord[]> {
  const out: ProductRecord[] = [];
  for (const ids of inListSlices([...new Set(itemIds)])) {
    const rows = await db
      .selectFrom('catalog_products')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where('generation', '=', generation)
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) out.push(toProductRecord(row));
  }
  return out;
}

/** A catalog_products row as the product view takes it (search reads rows of its own and maps them here). */
export function toProductRecord(row: ProductRow): ProductRecord {
  return {
    id: row.id,
    groupId: row.group_id,
    available: fromFlag(row.available),
    name: row.name,
    description: row.description,
    url: row.url,
    price: row.price === null ? null : Number(row.price),
    oldprice: row.oldprice === null ? null : Number(row.oldprice),
    categoryIds: parseStringArray(row.category_ids),
    pictures: parseStringArray(row.pictures),
    vendor: row.vendor,
    model: row.model,
    vendorCode: row.vendor_code,
    barcode: row.barcode,
    params: parseParams(row.params),
    locationIds: parseStringArray(row.location_ids),
    deeplinkAndroid: row.deeplink_android,
    deeplinkIos: row.deeplink_ios,
    salesRate: row.sales_rate,
    ignored: fromFlag(row.ignored),
    widgetable: fromFlag(row.widgetable),
  };
}

/** Every category of the generation as the product view takes it. */
export async function listCategoryRecords(db: Executor, shopId: string, generation: number): Promise<CategoryRecord[]> {
  const rows = await db
    .selectFrom('catalog_categories')
    .select(['external_id', 'id', 'parent_external_id', 'name', 'url'])
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .execute();
  return rows.map((row) => ({
    externalId: row.external_id,
    id: Number(row.id),
    parentExternalId: row.parent_external_id,
    name: row.name,
    url: row.url,
  }));
}

/** Every location of the generation. */
export async function listLocationRecords(db: Executor, shopId: string, generation: number): Promise<LocationRecord[]> {
  return db
    .selectFrom('catalog_locations')
    .select(['id', 'name', 'type'])
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .execute();
}

/** A tree category as stored: `discountLocationIds` is null on rows staged before migration 0012. */
export type StoredTreeCategory = Omit<TreeCategoryRecord, 'discountLocationIds'> & {
  readonly discountLocationIds: readonly string[] | null;
};

/** Every category of the generation, siblings in the order of their stable ids (first seen first). */
export async function listTreeCategories(db: Executor, shopId: string, generation: number): Promise<StoredTreeCategory[]> {
  const rows = await db
    .selectFrom('catalog_categories')
    .select(['id', 'external_id', 'parent_external_id', 'name', 'url', 'discount_product_count', 'location_ids', 'discount_location_ids'])
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    externalId: row.external_id,
    parentExternalId: row.parent_external_id,
    name: row.name,
    url: row.url,
    discountProductCount: Number(row.discount_product_count),
    locationIds: parseStringArray(row.location_ids),
    discountLocationIds: row.discount_location_ids === null ? null : parseStringArray(row.discount_location_ids),
  }));
}

/** The categories, locations and prices of the generation's discounted products (oldprice > price). */
export async function listDiscountedProductPlaces(
  db: Executor,
  shopId: string,
  generation: number,
): Promise<Array<{ categoryIds: string[]; locationIds: string[]; price: number; oldprice: number }>> {
  const rows = await db
    .selectFrom('catalog_products')
    .select(['category_ids', 'location_ids', 'price', 'oldprice'])
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('price', 'is not', null)
    .whereRef('oldprice', '>', 'price')
    .execute();
  return rows.map((row) => ({
    categoryIds: parseStringArray(row.category_ids),
    locationIds: parseStringArray(row.location_ids),
    price: Number(row.price),
    oldprice: Number(row.oldprice),
  }));
}

export async function countNotWidgetable(db: Executor, shopId: string, generation: number): Promise<number> {
  const row = await db
    .selectFrom('catalog_products')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('widgetable', '=', 0)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** A page of the products hidden from the storefront, by offer id. */
export async function listNotWidgetable(
  db: Executor,
  shopId: string,
  generation: number,
  page: { readonly limit: number; readonly offset: number },
): Promise<ProductRecord[]> {
  const rows = await db
    .selectFrom('catalog_products')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('widgetable', '=', 0)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toProductRecord);
}

export function parseStringArray(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((element): element is string => typeof element === 'string') : [];
}

export function parseParams(text: string): ProductParam[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) return [];
  const out: ProductParam[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { key, values } = entry as { key?: unknown; values?: unknown };
    if (typeof key !== 'string' || !Array.isArray(values)) continue;
    out.push({
      key,
      values: values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number'),
    });
  }
  return out;
}
