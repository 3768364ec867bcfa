/**
 * One element of a JSON feed's categories, locations or offers array to what the YML
 * reader produces, so both formats meet the same rules. Values of the wrong type count
 * as absent; ids may be strings or numbers. Pure.
 */
import { describeTextProblem, findUnstorableText, textProblem } from '../../../storable-text.js';
import { cut, emptyRawOffer, FEED_LIMITS, type FeedItem, type RawParam } from './feed-types.js';

export type JsonSection = 'categories' | 'locations' | 'offers';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string (cut to `max`) or a finite number spelled as a string; otherwise undefined. */
function str(value: unknown, max: number): string | undefined {
  if (typeof value === 'string') return cut(value, max);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function strOrNumber(value: unknown, max: number): string | number | undefined {
  return typeof value === 'number' ? value : str(value, max);
}

function flag(value: unknown): string | boolean | undefined {
  return typeof value === 'boolean' ? value : str(value, 16);
}

/** `plural` as an array, or `singular` as one value or an array; bounded. */
function list(record: Json, plural: string, singular: string, max: number, maxChars: number): string[] {
  const raw = record[plural] ?? record[singular];
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const out: string[] = [];
  for (const value of values) {
    if (out.length >= max) break;
    const text = str(value, maxChars);
    if (text !== undefined) out.push(text);
  }
  return out;
}

const SINGULAR: Readonly<Record<JsonSection, string>> = { categories: 'category', locations: 'location', offers: 'offer' };

export function mapJsonItem(section: JsonSection, element: unknown, index: number): FeedItem {
  // JSON can spell text no database can store (a NUL, a lone surrogate: storable-text.ts);
  // the element holding it is skipped with the reason, as an element without an id is.
  // (XML cannot spell it: the YML reader refuses such a feed as not well-formed.)
  const unstorable = findUnstorableText(element);
  if (unstorable) {
    const id = isObject(element) ? str(element.id, FEED_LIMITS.id) : undefined;
    const where = unstorable.inName ? `a name${unstorable.path === '' ? '' : ` in ${unstorable.path}`}` : unstorable.path;
    return {
      kind: 'note',
      id: id !== undefined && textProblem(id) === undefined ? id.slice(0, 64) : '',
      reason: `${SINGULAR[section]} ${index}: ${where} ${describeTextProblem(unstorable.problem)}; skipped`,
    };
  }
  switch (section) {
    case 'categories':
      return mapCategory(element, index);
    case 'locations':
      return mapLocation(element, index);
    case 'offers':
      return mapOffer(element);
  }
}

function mapCategory(element: unknown, index: number): FeedItem {
  const id = isObject(element) ? str(element.id, FEED_LIMITS.id + 1)?.trim() : undefined;
  if (!isObject(element) || !id || id.length > FEED_LIMITS.id) {
    return { kind: 'note', id: id?.slice(0, 64) ?? '', reason: `category ${index} has no usable id; ignored` };
  }
  const url = str(element.url, FEED_LIMITS.url + 1)?.trim();
  return {
    kind: 'category',
    category: {
      id,
      parentId: str(element.parent_id, FEED_LIMITS.id)?.trim() || undefined,
      name: (str(element.name, FEED_LIMITS.name) ?? '').trim(),
      url: url && url.length <= FEED_LIMITS.url ? url : undefined,
    },
  };
}

function mapLocation(element: unknown, index: number): FeedItem {
  const id = isObject(element) ? str(element.id, FEED_LIMITS.id + 1)?.trim() : undefined;
  if (!isObject(element) || !id || id.length > FEED_LIMITS.id) {
    return { kind: 'note', id: id?.slice(0, 64) ?? '', reason: `location ${index} has no usable id; ignored` };
  }
  return {
    kind: 'location',
    location: {
      id,
      name: str(element.name, FEED_LIMITS.shortText)?.trim() || undefined,
      type: str(element.type, FEED_LIMITS.shortText)?.trim() || undefined,
      parentId: str(element.parent_id, FEED_LIMITS.id)?.trim() || undefined,
    },
  };
}

function mapOffer(element: unknown): FeedItem {
  const offer = emptyRawOffer();
  if (!isObject(element)) return { kind: 'offer', offer };
  offer.id = str(element.id, FEED_LIMITS.id + 1);
  offer.available = flag(element.available);
  offer.groupId = str(element.group_id, FEED_LIMITS.id + 1);
  offer.url = str(element.url, FEED_LIMITS.url + 1);
  offer.price = strOrNumber(element.price, 64);
  offer.oldprice = strOrNumber(element.oldprice, 64);
  offer.currencyId = str(element.currency_id, FEED_LIMITS.shortText);
  offer.categoryIds = list(element, 'category_ids', 'category_id', FEED_LIMITS.categoryIdsPerOffer, FEED_LIMITS.id + 1);
  offer.pictures = list(element, 'pictures', 'picture', FEED_LIMITS.picturesPerOffer, FEED_LIMITS.url + 1);
  offer.name = str(element.name, FEED_LIMITS.name);
  offer.vendor = str(element.vendor, FEED_LIMITS.shortText);
  offer.model = str(element.model, FEED_LIMITS.shortText);
  offer.vendorCode = str(element.vendor_code, FEED_LIMITS.shortText);
  offer.barcode = str(element.barcode, FEED_LIMITS.shortText);
  offer.description = str(element.description, FEED_LIMITS.description);
  offer.params = params(element.params);
  offer.locationIds = list(element, 'locations', 'location', FEED_LIMITS.locationsPerOffer, FEED_LIMITS.id + 1);
  offer.deeplinkAndroid = str(element.deeplink_android, FEED_LIMITS.url + 1);
  offer.deeplinkIos = str(element.deeplink_ios, FEED_LIMITS.url + 1);
  offer.salesRate = strOrNumber(element.sales_rate, 32);
  offer.ignored = flag(element.ignored);
  return { kind: 'offer', offer };
}

/** [{name, value, unit?}] as in YML, or [{key, values[], unit?}] as the Product record shows them. */
function params(value: unknown): RawParam[] {
  if (!Array.isArray(value)) return [];
  const out: RawParam[] = [];
  const max = FEED_LIMITS.paramsPerOffer * 4;
  for (const entry of value) {
    if (out.length >= max || !isObject(entry)) continue;
    const name = str(entry.name ?? entry.key, FEED_LIMITS.shortText);
    if (name === undefined) continue;
    const unit = str(entry.unit, FEED_LIMITS.shortText);
    const values: unknown[] = Array.isArray(entry.values) ? entry.values : [entry.value];
    for (const v of values.slice(0, FEED_LIMITS.valuesPerParam)) {
      const kept = strOrNumber(v, FEED_LIMITS.paramValue);
      if (kept !== undefined && out.length < max) out.push({ name, value: kept, unit });
    }
  }
  return out;
}
