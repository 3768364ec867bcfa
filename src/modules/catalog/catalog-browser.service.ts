import type { DbHandle } from '../../db/create-db.js';
import type { ShopsService } from '../shops/index.js';
import * as repo from './catalog-browser.repo.js';
import type { CategoryChildRow, ProductBrowseFilter } from './catalog-browser.repo.js';
import type { ProductImageView } from '../images/index.js';
import type { ProductImageSource } from './catalog.types.js';
import { toProductRecord, type ProductRow } from './products.repo.js';

/**
 * The catalog as the admin UI browses it (docs/admin-lists.md): the served generation's
 * products with filters, the category tree a level at a time, and the products hidden
 * from the storefront with their picture errors. Keyset pages: each read continues after
 * the key of the previous page's last row, and asks one row more than it answers to know
 * whether there is a next page. A shop without a landed catalog has empty lists.
 */

export type { ProductBrowseFilter } from './catalog-browser.repo.js';
export type CategoryChild = CategoryChildRow;

export interface Page<T> {
  readonly items: readonly T[];
  /** Whether rows follow the last item. */
  readonly more: boolean;
}

export interface BrowsedProduct {
  readonly id: string;
  readonly name: string | null;
  readonly url: string | null;
  /** Minor units. */
  readonly price: number | null;
  readonly oldprice: number | null;
  readonly available: boolean;
  /** Whether the storefront may show it (widgets, listings). */
  readonly widgetable: boolean;
  readonly categoryIds: readonly string[];
  readonly vendor: string | null;
  /** The first picture's link, and why its download failed (null: it did not fail, or there is none). */
  readonly picture: string | null;
  readonly pictureError: string | null;
}

export interface CatalogBrowserDeps {
  readonly db: DbHandle;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly catalog: { currentGeneration(shopId: string): Promise<number> };
  readonly images?: ProductImageSource;
}

export class CatalogBrowserService {
  constructor(private readonly deps: CatalogBrowserDeps) {}

  async browseProducts(shopId: string, filter: ProductBrowseFilter, afterId: string | null, limit: number): Promise<Page<BrowsedProduct>> {
    const generation = await this.generationOf(shopId);
    if (generation === 0) return { items: [], more: false };
    const rows = await repo.browseProducts(this.deps.db.db, shopId, generation, filter, afterId, limit + 1);
    return this.productPage(shopId, rows, limit);
  }

  async hiddenProducts(shopId: string, afterId: string | null, limit: number): Promise<Page<BrowsedProduct>> {
    const generation = await this.generationOf(shopId);
    if (generation === 0) return { items: [], more: false };
    const rows = await repo.listHiddenProducts(this.deps.db.db, shopId, generation, afterId, limit + 1);
    return this.productPage(shopId, rows, limit);
  }

  /** The children of a feed category (null: the top level); an unknown parent has none. */
  async categoryChildren(shopId: string, parent: string | null, afterId: number | null, limit: number): Promise<Page<CategoryChild>> {
    const generation = await this.generationOf(shopId);
    if (generation === 0) return { items: [], more: false };
    const rows = await repo.listCategoryChildren(this.deps.db.db, shopId, generation, parent, afterId, limit + 1);
    return { items: rows.slice(0, limit), more: rows.length > limit };
  }

  private async generationOf(shopId: string): Promise<number> {
    await this.deps.shops.requireShop(shopId);
    return this.deps.catalog.currentGeneration(shopId);
  }

  private async productPage(shopId: string, rows: readonly ProductRow[], limit: number): Promise<Page<BrowsedProduct>> {
    const records = rows.slice(0, limit).map(toProductRecord);
    const links = [...new Set(records.flatMap((p) => (p.pictures[0] === undefined ? [] : [p.pictures[0]])))];
    const images: ReadonlyMap<string, ProductImageView> =
      this.deps.images && links.length > 0 ? await this.deps.images.viewsFor(shopId, links) : new Map();
    return {
      items: records.map((p) => {
        const picture = p.pictures[0] ?? null;
        return {
          id: p.id,
          name: p.name,
          url: p.url,
          price: p.price,
          oldprice: p.oldprice,
          available: p.available,
          widgetable: p.widgetable,
          categoryIds: p.categoryIds,
          vendor: p.vendor,
          picture,
          pictureError: picture === null ? null : (images.get(picture)?.error ?? null),
        };
      }),
      more: rows.length > limit,
    };
  }
}
