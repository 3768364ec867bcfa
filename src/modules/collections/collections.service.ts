import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ShopCurrency } from '../catalog/index.js';
import type { Product } from '../catalog/index.js';
import type { ShopsService } from '../shops/index.js';
import * as repo from './collections.repo.js';
import { checkProductIds, isValidCollectionId, MAX_COLLECTION_PRODUCTS, visibleProducts, type Collection } from './domain/collection.js';

/** The served catalog's product views by offer id (ProductsService satisfies it). */
export interface CollectionProductSource {
  viewServedItems(shop: ShopCurrency, itemIds: readonly string[]): Promise<ReadonlyMap<string, Product>>;
}

export interface CollectionsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly products: CollectionProductSource;
}

export interface CollectionInput {
  readonly name: string;
  readonly productIds: readonly string[];
}

export const COLLECTION_NOT_FOUND = 'Collection not found';

/**
 * Product collections: kept whole through the admin API (PUT replaces), read by GET
 * /collection/{id} with the served catalog's product data. Decisions: docs/shopper-reads.md.
 */
export class CollectionsService {
  constructor(private readonly deps: CollectionsDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async putCollection(shopId: string, id: string, input: CollectionInput): Promise<Collection> {
    await this.deps.shops.requireShop(shopId);
    if (!isValidCollectionId(id)) throw invalidId();
    if (input.name.trim() === '') throw new AppError('VALIDATION_FAILED', 'Field `name` must not be blank.', { field: 'name' });
    if (input.productIds.length > MAX_COLLECTION_PRODUCTS) {
      throw new AppError('VALIDATION_FAILED', `Field \`product_ids\` must have at most ${MAX_COLLECTION_PRODUCTS} elements.`, {
        field: 'product_ids',
      });
    }
    const check = checkProductIds(input.productIds);
    if (!check.ok) throw new AppError('VALIDATION_FAILED', `Field \`${check.field}\` ${check.requirement}.`, { field: check.field });
    return repo.upsertCollection(this.db, {
      shopId,
      id,
      name: input.name.trim(),
      productIds: check.productIds,
      now: this.deps.clock.now(),
    });
  }

  async getCollection(shopId: string, id: string): Promise<Collection> {
    await this.deps.shops.requireShop(shopId);
    const collection = isValidCollectionId(id) ? await repo.findCollection(this.db, shopId, id) : undefined;
    if (!collection) throw new AppError('NOT_FOUND', `${COLLECTION_NOT_FOUND}.`, { field: 'id' });
    return collection;
  }

  async listCollections(shopId: string): Promise<Collection[]> {
    await this.deps.shops.requireShop(shopId);
    return repo.listCollections(this.db, shopId);
  }

  async deleteCollection(shopId: string, id: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!isValidCollectionId(id) || !(await repo.deleteCollection(this.db, shopId, id))) {
      throw new AppError('NOT_FOUND', `${COLLECTION_NOT_FOUND}.`, { field: 'id' });
    }
  }

  /**
   * GET /collection/{id}: the collection's products from the served catalog, in its
   * order; products the feed lacks are left out, and with `location` those not sold
   * there. NOT_FOUND for a collection the shop does not have. The caller has
   * authenticated the shop and checked the id's shape.
   */
  async collectionProducts(shop: ShopCurrency, id: string, location: string | undefined): Promise<Product[]> {
    const collection = await repo.findCollection(this.db, shop.shopId, id);
    if (!collection) throw new AppError('NOT_FOUND', COLLECTION_NOT_FOUND, { field: 'id' });
    const views = await this.deps.products.viewServedItems(shop, collection.productIds);
    const placed = new Map([...views].map(([itemId, view]) => [itemId, { id: itemId, locations: Object.keys(view.locations), view }]));
    return visibleProducts(collection.productIds, placed, location).map((p) => p.view);
  }
}

function invalidId(): AppError {
  return new AppError('VALIDATION_FAILED', 'Collection id must be 1 to 64 letters, digits, `_` or `-`.', { field: 'id' });
}
