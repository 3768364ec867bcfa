/**
 * What the feed parsers (YML and JSON) produce, format-independent, and the bounds every
 * feed is held to. Pure.
 */

/** Bounds on a feed: whole-feed counts fail the import; per-offer lists are cut. */
export const FEED_LIMITS = {
  offers: 2_000_000,
  categories: 100_000,
  locations: 100_000,
  /** Per offer. */
  categoryIdsPerOffer: 50,
  picturesPerOffer: 20,
  paramsPerOffer: 200,
  valuesPerParam: 50,
  locationsPerOffer: 1_000,
  /** Characters. Ids longer than this are refused (an offer is skipped, a category or location ignored). */
  id: 255,
  /** Characters. A longer link is dropped rather than cut (a cut link leads nowhere). */
  url: 2_048,
  /** Characters; longer text is cut. */
  name: 1_000,
  description: 20_000,
  shortText: 255,
  paramValue: 1_000,
} as const;

export interface RawCategory {
  readonly id: string;
  readonly parentId: string | undefined;
  readonly name: string;
  readonly url: string | undefined;
}

export interface RawLocation {
  readonly id: string;
  readonly name: string | undefined;
  readonly type: string | undefined;
  readonly parentId: string | undefined;
}

export interface RawParam {
  readonly name: string;
  readonly value: string | number;
  readonly unit: string | undefined;
}

/** An offer as read, before the rules of feed-offer.ts. Strings are already bounded. */
export interface RawOffer {
  id: string | undefined;
  available: string | boolean | undefined;
  groupId: string | undefined;
  url: string | undefined;
  price: string | number | undefined;
  oldprice: string | number | undefined;
  currencyId: string | undefined;
  categoryIds: string[];
  pictures: string[];
  name: string | undefined;
  vendor: string | undefined;
  model: string | undefined;
  vendorCode: string | undefined;
  barcode: string | undefined;
  description: string | undefined;
  params: RawParam[];
  locationIds: string[];
  deeplinkAndroid: string | undefined;
  deeplinkIos: string | undefined;
  salesRate: string | number | undefined;
  ignored: string | boolean | undefined;
}

export function emptyRawOffer(): RawOffer {
  return {
    id: undefined,
    available: undefined,
    groupId: undefined,
    url: undefined,
    price: undefined,
    oldprice: undefined,
    currencyId: undefined,
    categoryIds: [],
    pictures: [],
    name: undefined,
    vendor: undefined,
    model: undefined,
    vendorCode: undefined,
    barcode: undefined,
    description: undefined,
    params: [],
    locationIds: [],
    deeplinkAndroid: undefined,
    deeplinkIos: undefined,
    salesRate: undefined,
    ignored: undefined,
  };
}

/** One thing a parser read, in document order. `note`: an entry ignored with a reason. */
export type FeedItem =
  | { readonly kind: 'category'; readonly category: RawCategory }
  | { readonly kind: 'location'; readonly location: RawLocation }
  | { readonly kind: 'offer'; readonly offer: RawOffer }
  | { readonly kind: 'note'; readonly id: string; readonly reason: string };

/** A document that is not a feed: the import fails with this message (422 on the admin API). */
export class FeedFormatError extends Error {
  override readonly name = 'FeedFormatError';
  constructor(message: string) {
    // One sentence, as every error message of Patron: it ends with a full stop.
    super(/[.!?]$/.test(message) ? message : `${message}.`);
  }
}

/** Cuts `text` to `max` characters (never splitting a surrogate pair). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

/**
 * A copy of `text` that does not hold on to the string it was cut from. V8 keeps a slice
 * of 13 characters or more as a view into its parent, so one offer id kept in a Set (or
 * a description waiting in a batch) would keep a whole decoded chunk of the feed alive,
 * and a large feed entirely. Slicing a fresh concatenation forces a flat copy.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** Trimmed text, or undefined when empty. */
export function nonEmpty(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed;
}
