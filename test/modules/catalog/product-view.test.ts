import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { linkHandle } from '../../../src/modules/catalog/domain/link-handle.js';
import { discountOf, groupThousands, priceFields } from '../../../src/modules/catalog/domain/price.js';
import {
  productCategories,
  toProductView,
  type CategoryRecord,
  type ProductRecord,
  type ProductViewContext,
} from '../../../src/modules/catalog/domain/product-view.js';
import { ProductSchema } from '../../../src/modules/catalog/domain/product.schema.js';

function category(externalId: string, id: number, parent: string | null, name: string, url: string | null = null): CategoryRecord {
  return { externalId, id, parentExternalId: parent, name, url };
}

const CATEGORIES = new Map(
  [
    category('1', 101, null, 'Clothes', 'https://shop.example/c/clothes'),
    category('2', 102, '1', 'Shoes', 'https://shop.example/c/shoes?sort=new'),
    category('3', 103, '2', 'Sneakers', 'https://shop.example/c/sneakers'),
    category('4', 104, null, 'Books'),
    category('5', 105, 'gone', 'Orphan'),
  ].map((c) => [c.externalId, c]),
);

function product(overrides: Partial<ProductRecord> = {}): ProductRecord {
  return {
    id: 'sku-1',
    groupId: 'g-1',
    available: true,
    name: 'Runner red',
    description: 'Light running shoes',
    url: 'https://shop.example/p/sku-1?color=red#reviews',
    price: 199050,
    oldprice: 249000,
    categoryIds: ['3'],
    pictures: ['https://img.shop.example/sku-1.jpg', 'https://img.shop.example/sku-1b.jpg'],
    vendor: 'Acme',
    model: 'Runner',
    vendorCode: 'AC-1',
    barcode: '4600000000011',
    params: [
      { key: 'Color', values: ['red'] },
      { key: 'Size', values: ['42', 43] },
    ],
    locationIds: ['msk'],
    deeplinkAndroid: 'app://p/sku-1',
    deeplinkIos: null,
    salesRate: 12,
    ignored: false,
    widgetable: true,
    ...overrides,
  };
}

const CONTEXT: ProductViewContext = {
  currencySymbol: '₽',
  categories: CATEGORIES,
  locations: new Map([['msk', { id: 'msk', name: 'Moscow', type: 'city' }]]),
  image: null,
};

const ORIGINAL = 'https://img.shop.example/sku-1.jpg';
const ALL_ORIGINAL = Object.fromEntries(['120', '140', '160', '180', '200', '220', '310', '520', 'original'].map((key) => [key, ORIGINAL]));

describe('toProductView', () => {
  it('derives every field of the Product resource', () => {
    expect(toProductView(product(), CONTEXT)).toEqual({
      name: 'Runner red',
      is_available: true,
      description: 'Light running shoes',
      url: 'https://shop.example/p/sku-1?color=red#reviews',
      url_handle: '/p/sku-1?color=red#reviews',
      deeplink_android: 'app://p/sku-1',
      deeplink_ios: null,
      category_ids: ['3'],
      barcode: '4600000000011',
      vendor_code: 'AC-1',
      brand: 'Acme',
      model: 'Runner',
      sales_rate: 12,
      relative_sales_rate: null,
      picture: ORIGINAL,
      image_url: ORIGINAL,
      image_url_handle: '/sku-1.jpg',
      image_url_resized: ALL_ORIGINAL,
      categories: [
        {
          id: '1',
          name: 'Clothes',
          url: 'https://shop.example/c/clothes',
          url_handle: '/c/clothes',
          name_with_parent: 'Clothes',
          level: '1',
          branch: 1,
        },
        {
          id: '2',
          name: 'Shoes',
          url: 'https://shop.example/c/shoes?sort=new',
          url_handle: '/c/shoes?sort=new',
          name_with_parent: 'Clothes - Shoes',
          level: '2',
          parent_id: '1',
          parent: '1',
          branch: 1,
        },
        {
          id: '3',
          name: 'Sneakers',
          url: 'https://shop.example/c/sneakers',
          url_handle: '/c/sneakers',
          name_with_parent: 'Shoes - Sneakers',
          level: '3',
          parent_id: '2',
          parent: '2',
          branch: 1,
        },
      ],
      discount_percent: 20,
      discount: true,
      discount_formatted: '20%',
      price: 1990,
      price_full: 1990.5,
      price_formatted: '1 990 ₽',
      price_full_formatted: '1 990.50 ₽',
      oldprice: 2490,
      oldprice_full: 2490,
      oldprice_formatted: '2 490 ₽',
      oldprice_full_formatted: '2 490.00 ₽',
      currency: '₽',
      uniqid: 'sku-1',
      id: 'sku-1',
      group_id: 'g-1',
      widgetable: true,
      ignored: false,
      locations: { msk: { name: 'Moscow', type: 'city' } },
      params: [
        { key: 'Color', values: ['red'] },
        { key: 'Size', values: ['42', 43] },
      ],
    });
  });

  it('builds a view that fits the Product schema, including a product with nothing but an id', () => {
    const bare = product({
      groupId: null,
      available: false,
      name: null,
      description: null,
      url: null,
      price: null,
      oldprice: null,
      categoryIds: [],
      pictures: [],
      vendor: null,
      model: null,
      vendorCode: null,
      barcode: null,
      params: [],
      locationIds: [],
      deeplinkAndroid: null,
      salesRate: null,
      widgetable: false,
    });
    for (const view of [toProductView(product(), CONTEXT), toProductView(bare, CONTEXT)]) {
      expect([...Value.Errors(ProductSchema, view)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    }
  });

  it('shows missing feed fields as null, and name and description as empty strings', () => {
    const view = toProductView(
      product({ name: null, description: null, url: null, vendor: null, groupId: null, pictures: [], salesRate: null }),
      CONTEXT,
    );
    expect(view).toMatchObject({
      name: '',
      description: '',
      url: null,
      url_handle: null,
      brand: null,
      group_id: null,
      picture: null,
      image_url: null,
      image_url_handle: null,
      image_url_resized: null,
      sales_rate: null,
    });
  });

  it('leaves every price field null for an offer without a price, with no discount', () => {
    const view = toProductView(product({ price: null, oldprice: 50000 }), CONTEXT);
    expect(view).toMatchObject({
      price: null,
      price_full: null,
      price_formatted: null,
      price_full_formatted: null,
      oldprice: 500,
      oldprice_formatted: '500 ₽',
      discount: false,
      discount_percent: 0,
      discount_formatted: '0%',
    });
  });

  it('leaves the oldprice fields null without an oldprice', () => {
    expect(toProductView(product({ oldprice: null }), CONTEXT)).toMatchObject({
      oldprice: null,
      oldprice_full: null,
      oldprice_formatted: null,
      oldprice_full_formatted: null,
      discount: false,
      discount_percent: 0,
    });
  });

  it('shows an oldprice that is not above the price, without a discount', () => {
    expect(toProductView(product({ price: 100000, oldprice: 100000 }), CONTEXT)).toMatchObject({
      oldprice: 1000,
      discount: false,
      discount_percent: 0,
      discount_formatted: '0%',
    });
  });

  it('points every thumbnail size at the picture until the images module has thumbnails', () => {
    const resized = Object.fromEntries(
      ['120', '140', '160', '180', '200', '220', '310', '520'].map((size) => [size, `https://patron.example/images/${size}.jpg`]),
    );
    const view = toProductView(product(), { ...CONTEXT, image: { resized: { ...resized, original: ORIGINAL }, error: null } });
    expect(view.image_url_resized).toEqual({ ...resized, original: ORIGINAL });
    expect(view.image_url).toBe(ORIGINAL);
    expect(toProductView(product(), { ...CONTEXT, image: { resized: null, error: 'Timed out.' } }).image_url_resized).toEqual(ALL_ORIGINAL);
  });

  it('shows a location the catalog lacks with null name and type, and {} for a product sold everywhere', () => {
    expect(toProductView(product({ locationIds: ['msk', 'nowhere'] }), CONTEXT).locations).toEqual({
      msk: { name: 'Moscow', type: 'city' },
      nowhere: { name: null, type: null },
    });
    expect(toProductView(product({ locationIds: [] }), CONTEXT).locations).toEqual({});
    const proto = toProductView(product({ locationIds: ['__proto__'] }), CONTEXT).locations;
    expect(JSON.stringify(proto)).toBe('{"__proto__":{"name":null,"type":null}}');
  });

  it('keeps the currency symbol it is given', () => {
    expect(toProductView(product({ price: 123456789, oldprice: null }), { ...CONTEXT, currencySymbol: '$' })).toMatchObject({
      price_formatted: '1 234 567 $',
      price_full_formatted: '1 234 567.89 $',
      currency: '$',
    });
  });
});

describe('productCategories', () => {
  it('lists each category after its ancestors, once, numbering the branches of the product’s own categories', () => {
    const entries = productCategories(['3', '4', '2', 'unknown'], CATEGORIES);
    expect(entries.map((e) => [e.id, e.level, e.branch, e.parent_id ?? null])).toEqual([
      ['1', '1', 1, null],
      ['2', '2', 1, '1'],
      ['3', '3', 1, '2'],
      ['4', '1', 2, null],
    ]);
  });

  it('treats a category whose parent the catalog lacks as a root', () => {
    const [entry] = productCategories(['5'], CATEGORIES);
    expect(entry).toEqual({ id: '5', name: 'Orphan', url: null, url_handle: null, name_with_parent: 'Orphan', level: '1', branch: 1 });
  });

  it('stops at a loop of parents instead of walking forever', () => {
    const loop = new Map([
      ['a', category('a', 1, 'b', 'A')],
      ['b', category('b', 2, 'a', 'B')],
    ]);
    expect(productCategories(['a'], loop).map((e) => e.id)).toEqual(['b', 'a']);
  });
});

describe('price fields', () => {
  it.each([
    [0, 0, 0, '0 ₽', '0.00 ₽'],
    [1, 0, 0.01, '0 ₽', '0.01 ₽'],
    [99, 0, 0.99, '0 ₽', '0.99 ₽'],
    [100, 1, 1, '1 ₽', '1.00 ₽'],
    [99999, 999, 999.99, '999 ₽', '999.99 ₽'],
    [100000, 1000, 1000, '1 000 ₽', '1 000.00 ₽'],
    [1999050, 19990, 19990.5, '19 990 ₽', '19 990.50 ₽'],
    [123456789012, 1234567890, 1234567890.12, '1 234 567 890 ₽', '1 234 567 890.12 ₽'],
  ])('%i kopecks: integer part %i, full %d, `%s`, `%s`', (minor, whole, full, formatted, fullFormatted) => {
    expect(priceFields(minor, '₽')).toEqual({ whole, full, formatted, fullFormatted });
  });

  it('groups thousands with plain spaces', () => {
    expect([1, 12, 123, 1234, 12345, 123456, 1234567].map(groupThousands)).toEqual([
      '1',
      '12',
      '123',
      '1 234',
      '12 345',
      '123 456',
      '1 234 567',
    ]);
  });
});

describe('discountOf', () => {
  it.each([
    [199050, 249000, true, 20], // 20.06 %
    [87500, 100000, true, 13], // 12.5 % rounds half up
    [87501, 100000, true, 12], // 12.499 %
    [99600, 100000, true, 0], // 0.4 %: a discount, but less than half a percent
    [0, 100000, true, 100],
    [100000, 100000, false, 0],
    [150000, 100000, false, 0],
    [null, 100000, false, 0],
    [100000, null, false, 0],
  ])('price %s, oldprice %s → discount %s, %i%%', (price, oldprice, discount, percent) => {
    expect(discountOf(price, oldprice)).toEqual({ discount, percent });
  });

  it('matches rounding half up of the exact percentage over many prices', () => {
    const wrong: string[] = [];
    for (let oldprice = 1; oldprice <= 400; oldprice += 1) {
      for (let price = 0; price < oldprice; price += 1) {
        // Exact: compare 2 · 100 · saved with (2k − 1) · oldprice in integers.
        const saved = oldprice - price;
        let expected = Math.floor((100 * saved) / oldprice);
        if (2 * 100 * saved - 2 * expected * oldprice >= oldprice) expected += 1;
        if (discountOf(price, oldprice).percent !== expected) wrong.push(`${price}/${oldprice}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('linkHandle', () => {
  it.each([
    ['https://shop.example/p/1?color=red#top', '/p/1?color=red#top'],
    ['http://shop.example:8080/p/1', '/p/1'],
    ['https://shop.example', '/'],
    ['https://shop.example?x=1', '/?x=1'],
    ['//cdn.example/a.jpg', '/a.jpg'],
    ['/already/relative', '/already/relative'],
    ['https://магазин.рф/каталог/обувь?цвет=красный', '/каталог/обувь?цвет=красный'],
    ['https://user:pass@shop.example/p%20q', '/p%20q'],
  ])('%s → %s', (link, handle) => {
    expect(linkHandle(link)).toBe(handle);
  });
});
