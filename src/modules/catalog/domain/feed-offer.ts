/**
 * The rules for one offer of a feed (docs/catalog-import.md): which offers are skipped
 * and why, how each field is kept, and when a product is widgetable. Pure.
 */
import type { CatalogParam } from '../catalog.types.js';
import { parseFeedPrice, priceSkipReason } from './feed-price.js';
import { FEED_LIMITS, nonEmpty, type RawOffer, type RawParam } from './feed-types.js';

/** A product as staged: every column of catalog_products but the keys and `widgetable`. */
export interface ProductDraft {
  readonly id: string;
  readonly groupId: string | null;
  readonly available: boolean;
  readonly name: string | null;
  readonly description: string | null;
  readonly url: string | null;
  /** Minor units; null when the offer has no price. */
  readonly price: number | null;
  readonly oldprice: number | null;
  readonly currencyId: string | null;
  readonly categoryIds: readonly string[];
  readonly pictures: readonly string[];
  readonly vendor: string | null;
  readonly model: string | null;
  readonly vendorCode: string | null;
  readonly barcode: string | null;
  readonly params: readonly CatalogParam[];
  readonly locationIds: readonly string[];
  readonly deeplinkAndroid: string | null;
  readonly deeplinkIos: string | null;
  readonly salesRate: number | null;
  readonly ignored: boolean;
}

export type OfferOutcome =
  | { readonly ok: true; readonly product: ProductDraft }
  | { readonly ok: false; readonly id: string; readonly reason: string };

export function normalizeOffer(raw: RawOffer): OfferOutcome {
  const id = nonEmpty(raw.id);
  if (id === undefined) return { ok: false, id: '', reason: 'offer has no id' };
  if (id.length > FEED_LIMITS.id) return { ok: false, id: id.slice(0, 64), reason: `offer id is longer than ${FEED_LIMITS.id} characters` };

  let price: number | null = null;
  const priceText = typeof raw.price === 'string' ? nonEmpty(raw.price) : raw.price;
  if (priceText !== undefined) {
    const parsed = parseFeedPrice(priceText);
    if (!parsed.ok) return { ok: false, id, reason: priceSkipReason(parsed.reason) };
    price = parsed.minor;
  }
  // An unusable oldprice is dropped and the product kept: it only decides the discount.
  let oldprice: number | null = null;
  const oldText = typeof raw.oldprice === 'string' ? nonEmpty(raw.oldprice) : raw.oldprice;
  if (oldText !== undefined) {
    const parsed = parseFeedPrice(oldText);
    if (parsed.ok) oldprice = parsed.minor;
  }

  return {
    ok: true,
    product: {
      id,
      groupId: text(raw.groupId, FEED_LIMITS.id),
      available: parseFlag(raw.available, true),
      name: text(raw.name, FEED_LIMITS.name),
      description: text(raw.description, FEED_LIMITS.description),
      url: link(raw.url),
      price,
      oldprice,
      currencyId: text(raw.currencyId, FEED_LIMITS.shortText),
      categoryIds: distinct(raw.categoryIds, FEED_LIMITS.categoryIdsPerOffer),
      pictures: distinct(
        raw.pictures.map(link).filter((p): p is string => p !== null),
        FEED_LIMITS.picturesPerOffer,
        FEED_LIMITS.url,
      ),
      vendor: text(raw.vendor, FEED_LIMITS.shortText),
      model: text(raw.model, FEED_LIMITS.shortText),
      vendorCode: text(raw.vendorCode, FEED_LIMITS.shortText),
      barcode: text(raw.barcode, FEED_LIMITS.shortText),
      params: groupParams(raw.params),
      locationIds: distinct(raw.locationIds, FEED_LIMITS.locationsPerOffer),
      deeplinkAndroid: link(raw.deeplinkAndroid),
      deeplinkIos: link(raw.deeplinkIos),
      salesRate: parseSalesRate(raw.salesRate),
      ignored: parseFlag(raw.ignored, false),
    },
  };
}

/** Price, at least one category of the feed, name and link all present (interface.md, endpoint 14). */
export function isWidgetable(product: ProductDraft, isKnownCategory: (id: string) => boolean): boolean {
  return product.price !== null && product.name !== null && product.url !== null && product.categoryIds.some((id) => isKnownCategory(id));
}

/** oldprice > price: the product counts toward its categories' discount_product_count. */
export function hasDiscount(product: Pick<ProductDraft, 'price' | 'oldprice'>): boolean {
  return product.price !== null && product.oldprice !== null && product.oldprice > product.price;
}

function text(value: string | undefined, max: number): string | null {
  const trimmed = nonEmpty(value);
  if (trimmed === undefined) return null;
  return trimmed.length > max ? trimmed.slice(0, max) : trimmed;
}

function link(value: string | undefined): string | null {
  const trimmed = nonEmpty(value);
  return trimmed === undefined || trimmed.length > FEED_LIMITS.url ? null : trimmed;
}

/** Distinct non-empty values in order, at most `max` of them; over-long ones are left out. */
function distinct(values: readonly string[], max: number, maxLength: number = FEED_LIMITS.id): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    const trimmed = nonEmpty(value);
    if (trimmed === undefined || trimmed.length > maxLength) continue;
    seen.add(trimmed);
    if (seen.size >= max) break;
  }
  return [...seen];
}

/** "true"/"1"/"yes" and booleans; anything else spelled out is false; absent is the fallback. */
export function parseFlag(value: string | boolean | undefined, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value;
  const trimmed = nonEmpty(value)?.toLowerCase();
  if (trimmed === undefined) return fallback;
  return trimmed === 'true' || trimmed === '1' || trimmed === 'yes';
}

function parseSalesRate(value: string | number | undefined): number | null {
  const n = typeof value === 'number' ? value : Number(nonEmpty(value) ?? Number.NaN);
  return Number.isSafeInteger(n) && n >= 0 && n <= 2_147_483_647 ? n : null;
}

/** Params with one name are one key with several values, in the order they came. */
function groupParams(params: readonly RawParam[]): CatalogParam[] {
  const byKey = new Map<string, { key: string; values: (string | number)[]; unit?: string }>();
  for (const param of params) {
    const key = nonEmpty(param.name);
    if (key === undefined) continue;
    const value = typeof param.value === 'number' ? param.value : nonEmpty(param.value);
    if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) continue;
    let entry = byKey.get(key);
    if (entry === undefined) {
      if (byKey.size >= FEED_LIMITS.paramsPerOffer) continue;
      entry = { key, values: [] };
      byKey.set(key, entry);
    }
    if (entry.values.length >= FEED_LIMITS.valuesPerParam) continue;
    entry.values.push(typeof value === 'string' ? value.slice(0, FEED_LIMITS.paramValue) : value);
    const unit = nonEmpty(param.unit);
    if (entry.unit === undefined && unit !== undefined) entry.unit = unit.slice(0, FEED_LIMITS.shortText);
  }
  return [...byKey.values()];
}
