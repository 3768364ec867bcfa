import type { FeedSpec } from '../helpers/feed-builder.js';

/**
 * The catalog of the catalog-read contract tests, imported through the feed import:
 *
 *   Clothes(1) ─ Shoes(2) ─ Sneakers(3)    sku-1 (discount, msk), sku-2 (spb); sku-3 also in Shoes
 *              └ Hats(6)                   sku-5 (spb)
 *   Books(4)                               sku-3 (discount, sold everywhere, unavailable)
 *   Toys(5) ─ Cars(7)                      sku-6 (discount, spb)
 *
 * sku-1 and sku-2 are variants of one group; sku-4 has no price and sku-7 only an
 * unknown category (both hidden from the storefront).
 */
export function catalogFeed(): FeedSpec {
  return {
    categories: [
      { id: '1', name: 'Clothes', url: 'https://shop.example/c/clothes' },
      { id: '2', name: 'Shoes', parentId: '1', url: 'https://shop.example/c/shoes?sort=new' },
      { id: '3', name: 'Sneakers', parentId: '2', url: 'https://shop.example/c/sneakers' },
      { id: '4', name: 'Books' },
      { id: '5', name: 'Toys', url: 'https://shop.example/c/toys' },
      { id: '6', name: 'Hats', parentId: '1' },
      { id: '7', name: 'Cars', parentId: '5' },
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
        url: 'https://shop.example/p/sku-1?color=red#reviews',
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
        deeplinkAndroid: 'https://shop.example/app/sku-1',
        salesRate: 7,
      },
      {
        id: 'sku-2',
        available: true,
        groupId: 'g-1',
        url: 'https://shop.example/p/sku-2?color=blue',
        price: '1990.50',
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
      { id: 'sku-4', available: true, url: 'https://shop.example/p/sku-4', categoryIds: ['1'], name: 'Gift card (no price)' },
      { id: 'sku-5', url: 'https://shop.example/p/sku-5', price: 100, categoryIds: ['6'], name: 'Cap', locations: ['spb'] },
      {
        id: 'sku-6',
        url: 'https://shop.example/p/sku-6',
        price: '12345.67',
        oldprice: '20000',
        categoryIds: ['7'],
        name: 'Race car',
        pictures: ['https://img.shop.example/sku-6.png'],
        locations: ['spb'],
      },
      {
        id: 'sku-7',
        url: 'https://shop.example/p/sku-7',
        price: 10,
        categoryIds: ['99'],
        name: 'Lost sock',
        pictures: ['https://img.shop.example/sku-7.jpg'],
      },
    ],
  };
}

/** The same feed with one offer changed (or removed, when `change` returns undefined). */
export function withOffer(
  spec: FeedSpec,
  id: string,
  change: (offer: NonNullable<FeedSpec['offers']>[number]) => NonNullable<FeedSpec['offers']>[number] | undefined,
): FeedSpec {
  const offers = (spec.offers ?? []).flatMap((offer) => {
    if (offer.id !== id) return [offer];
    const changed = change(offer);
    return changed ? [changed] : [];
  });
  return { ...spec, offers };
}
