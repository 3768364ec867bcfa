import type { Kysely } from 'kysely';
import type { Database, ProductImagesTable } from '../../db/types.js';

/** SQL of the images module; the same statements on SQLite and PostgreSQL. */

type Db = Kysely<Database>;

export interface PictureRow {
  readonly hash: string;
  readonly link: string;
  readonly status: ProductImagesTable['status'];
  readonly error: string | null;
}

export interface ProductPictures {
  readonly id: string;
  /** The column as stored: a JSON array of links. */
  readonly pictures: string;
}

/**
 * The served generation of the shop's catalog (0: none). Read here rather than through
 * the catalog service because the download job only needs this number and the product
 * pages below, both read-only.
 */
export async function currentGeneration(db: Db, shopId: string): Promise<number> {
  const row = await db.selectFrom('catalogs').select('generation').where('shop_id', '=', shopId).executeTakeFirst();
  return row ? Number(row.generation) : 0;
}

/** One page of a generation's products, by offer id. */
export function listProductPictures(
  db: Db,
  shopId: string,
  generation: number,
  afterId: string | undefined,
  limit: number,
): Promise<ProductPictures[]> {
  let query = db
    .selectFrom('catalog_products')
    .select(['id', 'pictures'])
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation);
  if (afterId !== undefined) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

/**
 * Adds pictures not known yet as pending; known ones (done, failed, pending) keep their
 * state and are only marked as seen now.
 */
export async function registerSeen(
  db: Db,
  shopId: string,
  pictures: readonly { hash: string; link: string }[],
  now: number,
): Promise<void> {
  if (pictures.length === 0) return;
  await db
    .insertInto('product_images')
    .values(
      pictures.map((picture) => ({
        shop_id: shopId,
        link_hash: picture.hash,
        link: picture.link,
        status: 'pending' as const,
        error: null,
        retry_at: null,
        seen_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['shop_id', 'link_hash']).doUpdateSet((eb) => ({ seen_at: eb.ref('excluded.seen_at') })))
    .execute();
}

/** Failed pictures among `hashes` whose retry time has come become pending again. */
export async function requeueFailed(db: Db, shopId: string, hashes: readonly string[], now: number): Promise<void> {
  if (hashes.length === 0) return;
  await db
    .updateTable('product_images')
    .set({ status: 'pending', updated_at: now })
    .where('shop_id', '=', shopId)
    .where('status', '=', 'failed')
    .where('retry_at', '<=', now)
    .where('link_hash', 'in', hashes)
    .execute();
}

/** The next pending pictures of a shop after `afterHash`, in hash order. */
export async function listPending(
  db: Db,
  shopId: string,
  afterHash: string | undefined,
  limit: number,
): Promise<{ hash: string; link: string }[]> {
  let query = db
    .selectFrom('product_images')
    .select(['link_hash as hash', 'link'])
    .where('shop_id', '=', shopId)
    .where('status', '=', 'pending');
  if (afterHash !== undefined) query = query.where('link_hash', '>', afterHash);
  return query.orderBy('link_hash').limit(limit).execute();
}

export async function markDone(db: Db, shopId: string, hash: string, now: number): Promise<void> {
  await db
    .updateTable('product_images')
    .set({ status: 'done', error: null, retry_at: null, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('link_hash', '=', hash)
    .execute();
}

export async function markFailed(db: Db, shopId: string, hash: string, error: string, retryAt: number, now: number): Promise<void> {
  await db
    .updateTable('product_images')
    .set({ status: 'failed', error, retry_at: retryAt, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('link_hash', '=', hash)
    .execute();
}

export async function findByHashes(db: Db, shopId: string, hashes: readonly string[]): Promise<PictureRow[]> {
  if (hashes.length === 0) return [];
  return db
    .selectFrom('product_images')
    .select(['link_hash as hash', 'link', 'status', 'error'])
    .where('shop_id', '=', shopId)
    .where('link_hash', 'in', hashes)
    .execute();
}

/**
 * Deletes up to `limit` pictures of a shop not seen by any landed catalog since
 * `seenBefore`, and returns their hashes (whose files the caller removes).
 */
export async function deleteUnseen(db: Db, shopId: string, seenBefore: number, limit: number): Promise<string[]> {
  const rows = await db
    .deleteFrom('product_images')
    .where('shop_id', '=', shopId)
    .where('seen_at', '<', seenBefore)
    .where('link_hash', 'in', (eb) =>
      eb
        .selectFrom('product_images')
        .select('link_hash')
        .where('shop_id', '=', shopId)
        .where('seen_at', '<', seenBefore)
        .orderBy('seen_at')
        .limit(limit),
    )
    .returning('link_hash')
    .execute();
  return rows.map((row) => row.link_hash);
}
