import type { ProductDraft } from './feed-offer.js';
import { THUMBNAIL_SIZES, type ProductImageView } from '../../images/index.js';
import { discountOf, priceFields } from './price.js';
import { type Product, type ProductCategory, type ProductImageLinks, type ProductParam } from './product.schema.js';
import { linkHandle } from './link-handle.js';

/**
 * The Product resource of interface.md from one catalog product. Pure: the caller loads
 * the product, the categories it names (with their ancestors), its locations and its
 * picture's thumbnails, and passes the shop's currency symbol. Search results use the
 * same mapper, so both answers spell a product alike. Decisions: docs/catalog-read.md.
 */

/**
 * A catalog product as the repository reads it: the staged product (feed-offer.ts) with
 * its `widgetable` flag, JSON columns parsed, prices in minor units; the view shows
 * params without their unit.
 */
export interface ProductRecord extends Omit<ProductDraft, 'currencyId' | 'params'> {
  readonly params: readonly ProductParam[];
  readonly widgetable: boolean;
}

/** A category of the served catalog. */
export interface CategoryRecord {
  /** The feed's id. */
  readonly externalId: string;
  /** The platform's stable integer id. */
  readonly id: number;
  readonly parentExternalId: string | null;
  readonly name: string;
  readonly url: string | null;
}

export interface LocationRecord {
  readonly id: string;
  readonly name: string | null;
  readonly type: string | null;
}

export interface ProductViewContext {
  /** The currency symbol of the shop (shops/domain/currency.ts). */
  readonly currencySymbol: string;
  /** Categories by external id: at least the product's and their ancestors. */
  readonly categories: ReadonlyMap<string, CategoryRecord>;
  /** Locations by id; a location the map lacks is shown with null name and type. */
  readonly locations?: ReadonlyMap<string, LocationRecord>;
  /** The thumbnails of the product's first picture, when the images module has any. */
  readonly image?: ProductImageView | null;
}

/** Longest ancestor chain walked; the import breaks loops, this only bounds a bad row. */
const MAX_CATEGORY_DEPTH = 64;

export function toProductView(product: ProductRecord, context: ProductViewContext): Product {
  const symbol = context.currencySymbol;
  const price = product.price === null ? null : priceFields(product.price, symbol);
  const oldprice = product.oldprice === null ? null : priceFields(product.oldprice, symbol);
  const { discount, percent } = discountOf(product.price, product.oldprice);
  const picture = product.pictures[0] ?? null;
  return {
    name: product.name ?? '',
    is_available: product.available,
    description: product.description ?? '',
    url: product.url,
    url_handle: product.url === null ? null : linkHandle(product.url),
    deeplink_android: product.deeplinkAndroid,
    deeplink_ios: product.deeplinkIos,
    category_ids: [...product.categoryIds],
    barcode: product.barcode,
    vendor_code: product.vendorCode,
    brand: product.vendor,
    model: product.model,
    sales_rate: product.salesRate,
    relative_sales_rate: null,
    picture,
    image_url: picture,
    image_url_handle: picture === null ? null : linkHandle(picture),
    image_url_resized: picture === null ? null : imageLinks(picture, context.image ?? null),
    categories: productCategories(product.categoryIds, context.categories),
    discount_percent: percent,
    discount,
    discount_formatted: `${percent}%`,
    price: price?.whole ?? null,
    price_full: price?.full ?? null,
    price_formatted: price?.formatted ?? null,
    price_full_formatted: price?.fullFormatted ?? null,
    oldprice: oldprice?.whole ?? null,
    oldprice_full: oldprice?.full ?? null,
    oldprice_formatted: oldprice?.formatted ?? null,
    oldprice_full_formatted: oldprice?.fullFormatted ?? null,
    currency: symbol,
    uniqid: product.id,
    id: product.id,
    group_id: product.groupId,
    widgetable: product.widgetable,
    ignored: product.ignored,
    locations: locationsOf(product.locationIds, context.locations),
    params: product.params.map((param) => ({ key: param.key, values: [...param.values] })),
  };
}

/** Every size key and `original`; a size without a thumbnail (yet) points to the original. */
export function imageLinks(original: string, image: ProductImageView | null): ProductImageLinks {
  const links: Record<string, string> = {};
  for (const size of THUMBNAIL_SIZES) links[String(size)] = image?.resized?.[String(size)] ?? original;
  links.original = original;
  return links as ProductImageLinks;
}

/**
 * For each of the product's categories, in feed order, its ancestors from the root and
 * then itself; a category already listed is not repeated. `branch` numbers the product's
 * own categories from 1, and an entry carries the branch of the first one that led to
 * it. Category ids the catalog does not know are left out (they stay in category_ids).
 */
export function productCategories(categoryIds: readonly string[], categories: ReadonlyMap<string, CategoryRecord>): ProductCategory[] {
  const out: ProductCategory[] = [];
  const listed = new Set<string>();
  let branch = 0;
  for (const id of categoryIds) {
    const own = categories.get(id);
    if (!own) continue;
    branch += 1;
    for (const category of ancestry(own, categories)) {
      if (listed.has(category.externalId)) continue;
      listed.add(category.externalId);
      out.push(categoryEntry(category, categories, branch, depthOf(category, categories)));
    }
  }
  return out;
}

/** The chain root → … → category, following known parents only. */
function ancestry(category: CategoryRecord, categories: ReadonlyMap<string, CategoryRecord>): CategoryRecord[] {
  const chain = [category];
  const seen = new Set([category.externalId]);
  let current = category;
  while (current.parentExternalId !== null && chain.length < MAX_CATEGORY_DEPTH) {
    const parent = categories.get(current.parentExternalId);
    if (!parent || seen.has(parent.externalId)) break;
    seen.add(parent.externalId);
    chain.unshift(parent);
    current = parent;
  }
  return chain;
}

function depthOf(category: CategoryRecord, categories: ReadonlyMap<string, CategoryRecord>): number {
  return ancestry(category, categories).length;
}

function categoryEntry(
  category: CategoryRecord,
  categories: ReadonlyMap<string, CategoryRecord>,
  branch: number,
  level: number,
): ProductCategory {
  const parent = category.parentExternalId === null ? undefined : categories.get(category.parentExternalId);
  // A parent the catalog lacks makes the category a root, as in the category tree.
  const nested = parent !== undefined && level > 1;
  return {
    id: category.externalId,
    name: category.name,
    url: category.url,
    url_handle: category.url === null ? null : linkHandle(category.url),
    name_with_parent: nested ? `${parent.name} - ${category.name}` : category.name,
    level: String(level),
    // contract-notes "Catalog": the mobile SDK reads `parent`, so it repeats parent_id.
    ...(nested && { parent_id: parent.externalId, parent: parent.externalId }),
    branch,
  };
}

function locationsOf(
  ids: readonly string[],
  known: ReadonlyMap<string, LocationRecord> | undefined,
): Record<string, { name: string | null; type: string | null }> {
  // No prototype: a location id such as `__proto__` is a plain key.
  const out = Object.create(null) as Record<string, { name: string | null; type: string | null }>;
  for (const id of ids) {
    const location = known?.get(id);
    out[id] = { name: location?.name ?? null, type: location?.type ?? null };
  }
  return out;
}
