/**
 * What the YML reader keeps of an offer's children and how, and the named entities it
 * understands beyond XML's own. Pure.
 */
import type { SaxesTagPlain } from 'saxes';
import { cut, detach, FEED_LIMITS, nonEmpty, type RawOffer } from './feed-types.js';

export type Tag = SaxesTagPlain;

/** Offer children kept as text, with the most characters kept (one more shows a link is too long). */
export const OFFER_FIELDS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    url: FEED_LIMITS.url + 1,
    price: 64,
    oldprice: 64,
    currencyId: FEED_LIMITS.shortText,
    categoryId: FEED_LIMITS.id + 1,
    picture: FEED_LIMITS.url + 1,
    name: FEED_LIMITS.name,
    vendor: FEED_LIMITS.shortText,
    model: FEED_LIMITS.shortText,
    vendorCode: FEED_LIMITS.shortText,
    barcode: FEED_LIMITS.shortText,
    description: FEED_LIMITS.description,
    param: FEED_LIMITS.paramValue,
    deeplink_android: FEED_LIMITS.url + 1,
    deeplink_ios: FEED_LIMITS.url + 1,
    sales_rate: 32,
    ignored: 16,
  }),
);

// Named HTML entities that real feeds put in names and descriptions although XML does
// not define them; refusing a whole feed for a &nbsp; helps nobody.
export const HTML_ENTITIES: Readonly<Record<string, string>> = {
  nbsp: '\u00A0',
  laquo: '«',
  raquo: '»',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  bull: '•',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  times: '×',
  middot: '·',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  bdquo: '„',
  euro: '€',
  shy: '\u00AD',
};

/** An attribute's value, trimmed, cut to `max` and detached from the parser's text. */
export function attr(tag: Tag, name: string, max: number = FEED_LIMITS.shortText): string | undefined {
  const value = tag.attributes[name];
  const text = typeof value === 'string' ? nonEmpty(cut(value, max)) : undefined;
  return text === undefined ? undefined : detach(text);
}

/** Puts the text of the offer child `name` where RawOffer keeps it; repeated children up to their bound. */
export function setOfferField(offer: RawOffer, name: string, tag: Tag, text: string): void {
  switch (name) {
    case 'categoryId':
      if (offer.categoryIds.length < FEED_LIMITS.categoryIdsPerOffer) offer.categoryIds.push(text);
      return;
    case 'picture':
      if (offer.pictures.length < FEED_LIMITS.picturesPerOffer) offer.pictures.push(text);
      return;
    case 'param': {
      const paramName = attr(tag, 'name');
      if (paramName !== undefined && offer.params.length < FEED_LIMITS.paramsPerOffer * 4) {
        offer.params.push({ name: paramName, value: text, unit: attr(tag, 'unit') });
      }
      return;
    }
    case 'currencyId':
      offer.currencyId = text;
      return;
    case 'vendorCode':
      offer.vendorCode = text;
      return;
    case 'deeplink_android':
      offer.deeplinkAndroid = text;
      return;
    case 'deeplink_ios':
      offer.deeplinkIos = text;
      return;
    case 'sales_rate':
      offer.salesRate = text;
      return;
    case 'url':
    case 'price':
    case 'oldprice':
    case 'name':
    case 'vendor':
    case 'model':
    case 'barcode':
    case 'description':
    case 'ignored':
      offer[name] = text;
      return;
  }
}
