import type { FeedImportResult } from '../../src/modules/catalog/catalog.types.js';
import type { Services } from '../../src/services.js';

/**
 * Builds product feeds for tests from a compact description: the same content as a YML
 * document (`buildYml`) or as a JSON feed object (`buildJsonFeed`), so a test can import
 * a catalog through `services.catalog.importFeed` (or `importTestFeed`) and compare both
 * formats. Values are written as given: a price may be a string such as '12.50' or
 * '-1' to exercise the parser's rules.
 */

export interface FeedCategorySpec {
  readonly id: string;
  readonly name: string;
  readonly parentId?: string;
  readonly url?: string;
}

export interface FeedLocationSpec {
  readonly id: string;
  readonly name?: string;
  readonly type?: string;
  readonly parentId?: string;
}

export interface FeedParamSpec {
  readonly name: string;
  readonly value: string | number;
  readonly unit?: string;
}

export interface FeedOfferSpec {
  /** Left out of the document when undefined (an offer without an id is skipped). */
  readonly id?: string;
  readonly available?: boolean;
  readonly groupId?: string;
  readonly url?: string;
  readonly price?: string | number;
  readonly oldprice?: string | number;
  readonly currencyId?: string;
  readonly categoryIds?: readonly string[];
  readonly pictures?: readonly string[];
  readonly name?: string;
  readonly vendor?: string;
  readonly model?: string;
  readonly vendorCode?: string;
  readonly barcode?: string;
  readonly description?: string;
  readonly params?: readonly FeedParamSpec[];
  /** Location ids where the offer is sold. */
  readonly locations?: readonly string[];
  readonly deeplinkAndroid?: string;
  readonly deeplinkIos?: string;
  readonly salesRate?: number;
  readonly ignored?: boolean;
}

export interface FeedSpec {
  readonly shopName?: string;
  readonly categories?: readonly FeedCategorySpec[];
  readonly locations?: readonly FeedLocationSpec[];
  readonly offers?: readonly FeedOfferSpec[];
}

function esc(value: string | number): string {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function attrs(pairs: Record<string, string | number | undefined>): string {
  return Object.entries(pairs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${esc(v as string | number)}"`)
    .join('');
}

function element(name: string, value: string | number | undefined): string {
  return value === undefined ? '' : `<${name}>${esc(value)}</${name}>`;
}

function offerYml(offer: FeedOfferSpec): string {
  const open = `<offer${attrs({
    id: offer.id,
    available: offer.available === undefined ? undefined : String(offer.available),
    group_id: offer.groupId,
  })}>`;
  const body = [
    element('url', offer.url),
    element('price', offer.price),
    element('oldprice', offer.oldprice),
    element('currencyId', offer.currencyId),
    ...(offer.categoryIds ?? []).map((id) => element('categoryId', id)),
    ...(offer.pictures ?? []).map((link) => element('picture', link)),
    element('name', offer.name),
    element('vendor', offer.vendor),
    element('model', offer.model),
    element('vendorCode', offer.vendorCode),
    element('barcode', offer.barcode),
    element('description', offer.description),
    element('deeplink_android', offer.deeplinkAndroid),
    element('deeplink_ios', offer.deeplinkIos),
    element('sales_rate', offer.salesRate),
    offer.ignored === undefined ? '' : element('ignored', String(offer.ignored)),
    ...(offer.params ?? []).map((p) => `<param${attrs({ name: p.name, unit: p.unit })}>${esc(p.value)}</param>`),
    offer.locations ? `<locations>${offer.locations.map((id) => `<location${attrs({ id })}/>`).join('')}</locations>` : '',
  ].join('');
  return `${open}${body}</offer>`;
}

/** The feed as a YML document (yml_catalog/shop/…). */
export function buildYml(spec: FeedSpec): string {
  const categories = (spec.categories ?? [])
    .map((c) => `<category${attrs({ id: c.id, parentId: c.parentId, url: c.url })}>${esc(c.name)}</category>`)
    .join('\n');
  const locations = (spec.locations ?? [])
    .map((l) => `<location${attrs({ id: l.id, name: l.name, type: l.type, parentId: l.parentId })}/>`)
    .join('\n');
  const offers = (spec.offers ?? []).map(offerYml).join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<yml_catalog date="2026-01-15 12:00">',
    '<shop>',
    element('name', spec.shopName ?? 'Test shop'),
    '<currencies><currency id="RUB" rate="1"/></currencies>',
    `<categories>\n${categories}\n</categories>`,
    spec.locations ? `<locations>\n${locations}\n</locations>` : '',
    `<offers>\n${offers}\n</offers>`,
    '</shop>',
    '</yml_catalog>',
    '',
  ].join('\n');
}

/** The JSON feed shape of PUT /admin/v1/shops/{shop_id}/feed with Content-Type application/json. */
export function buildJsonFeed(spec: FeedSpec): Record<string, unknown> {
  return {
    categories: (spec.categories ?? []).map((c) => compact({ id: c.id, parent_id: c.parentId, name: c.name, url: c.url })),
    locations: (spec.locations ?? []).map((l) => compact({ id: l.id, name: l.name, type: l.type, parent_id: l.parentId })),
    offers: (spec.offers ?? []).map((o) =>
      compact({
        id: o.id,
        available: o.available,
        group_id: o.groupId,
        url: o.url,
        price: o.price,
        oldprice: o.oldprice,
        currency_id: o.currencyId,
        category_ids: o.categoryIds,
        pictures: o.pictures,
        name: o.name,
        vendor: o.vendor,
        model: o.model,
        vendor_code: o.vendorCode,
        barcode: o.barcode,
        description: o.description,
        deeplink_android: o.deeplinkAndroid,
        deeplink_ios: o.deeplinkIos,
        sales_rate: o.salesRate,
        ignored: o.ignored,
        params: o.params?.map((p) => compact({ name: p.name, value: p.value, unit: p.unit })),
        locations: o.locations,
      }),
    ),
  };
}

function compact(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/** Imports the spec into the shop's catalog (YML by default) and returns the import's counts. */
export async function importTestFeed(
  services: Pick<Services, 'catalog'>,
  shopId: string,
  spec: FeedSpec,
  format: 'yml' | 'json' = 'yml',
): Promise<FeedImportResult> {
  const body = format === 'yml' ? buildYml(spec) : JSON.stringify(buildJsonFeed(spec));
  return services.catalog.importFeed({ shopId, format, body, source: 'admin' });
}

/**
 * A small catalog with what the issue asks tests to cover: three levels of categories,
 * offers with and without oldprice, one without a price, params, locations and variants
 * (one group_id shared by two offers).
 */
export function sampleFeed(): FeedSpec {
  return {
    categories: [
      { id: '1', name: 'Clothes', url: 'https://shop.example/c/clothes' },
      { id: '2', name: 'Shoes', parentId: '1', url: 'https://shop.example/c/shoes' },
      { id: '3', name: 'Sneakers', parentId: '2', url: 'https://shop.example/c/sneakers' },
      { id: '4', name: 'Books' },
    ],
    locations: [
      { id: 'ru', name: 'Russia', type: 'country' },
      { id: 'msk', name: 'Moscow', type: 'city', parentId: 'ru' },
      { id: 'spb', name: 'Saint Petersburg', type: 'city', parentId: 'ru' },
    ],
    offers: [
      {
        id: 'sku-1',
        available: true,
        groupId: 'g-1',
        url: 'https://shop.example/p/sku-1?color=red',
        price: '1990.50',
        oldprice: '2490',
        currencyId: 'RUB',
        categoryIds: ['3'],
        pictures: ['https://img.shop.example/sku-1.jpg', 'https://img.shop.example/sku-1b.jpg'],
        name: 'Runner red',
        vendor: 'Acme',
        model: 'Runner',
        vendorCode: 'AC-1',
        barcode: '4600000000011',
        description: 'Light running shoes',
        params: [
          { name: 'Color', value: 'red' },
          { name: 'Size', value: '42', unit: 'EU' },
          { name: 'Size', value: '43', unit: 'EU' },
        ],
        locations: ['msk'],
      },
      {
        id: 'sku-2',
        available: true,
        groupId: 'g-1',
        url: 'https://shop.example/p/sku-2?color=blue',
        price: '1990.50',
        currencyId: 'RUB',
        categoryIds: ['3'],
        pictures: ['https://img.shop.example/sku-2.jpg'],
        name: 'Runner blue',
        vendor: 'Acme',
        params: [{ name: 'Color', value: 'blue' }],
        locations: ['spb'],
      },
      {
        id: 'sku-3',
        available: false,
        url: 'https://shop.example/p/sku-3',
        price: '350',
        oldprice: '500',
        categoryIds: ['4', '2'],
        name: 'Shoe care book',
      },
      {
        id: 'sku-4',
        available: true,
        url: 'https://shop.example/p/sku-4',
        categoryIds: ['1'],
        name: 'Gift card (no price)',
      },
    ],
  };
}
