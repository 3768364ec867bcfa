import { Type, type Static } from '@sinclair/typebox';
import { THUMBNAIL_SIZES } from '../../images/index.js';

/**
 * The Product resource of interface.md ("Product", the answer of GET /products/get and
 * each product of search results), field for field in the contract's order. One source
 * of truth: the product view (product-view.ts) builds a `Product`, and the public routes
 * serialise and document it with this schema. Values a feed may lack are null, except
 * `name` and `description`, which the contract says are always present (`''` then).
 */

const Text = (description: string) => Type.String({ description });
const NullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const NullableInteger = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });
const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const ProductImageLinksSchema = Type.Object(
  {
    ...Object.fromEntries(THUMBNAIL_SIZES.map((size) => [String(size), Text(`Link to a ${size}×${size} square photo.`)])),
    original: Text('Link to the original photo.'),
  },
  { description: 'Thumbnail links by size; each points to the original until the thumbnails are made.' },
);

export const ProductCategorySchema = Type.Object({
  id: Text('Category id of the feed.'),
  name: Text('Name.'),
  url: NullableText('Category page link.'),
  url_handle: NullableText('The link without scheme and host.'),
  name_with_parent: Text('`Parent - Name`, or the name alone for a root.'),
  level: Text('Nesting level from the root, `1` for a root.'),
  parent_id: Type.Optional(Text('Parent category id (nested categories only).')),
  parent: Type.Optional(Text('The same value as `parent_id`, under the name the mobile SDK reads (contract-notes "Catalog").')),
  branch: Type.Integer({
    description: 'Which of the product’s own categories this entry leads to (1 = the first of category_ids).',
  }),
});

export const ProductParamSchema = Type.Object({
  key: Text('Parameter name from the feed.'),
  values: Type.Array(Type.Union([Type.String(), Type.Number()]), { description: 'Values as the feed gave them.' }),
});

export const ProductLocationSchema = Type.Object({
  name: NullableText('Location name from the feed.'),
  type: NullableText('Location type from the feed (e.g. `city`).'),
});

export const ProductSchema = Type.Object(
  {
    name: Text('Product name (`""` when the feed has none).'),
    is_available: Type.Boolean(),
    description: Text('Description (`""` when the feed has none).'),
    url: NullableText('Product link.'),
    url_handle: NullableText('The link without scheme and host: path, query and fragment.'),
    deeplink_android: NullableText('Deep link for Android.'),
    deeplink_ios: NullableText('Deep link for iOS.'),
    category_ids: Type.Array(Type.String(), { description: 'Category ids of the offer, as in the feed.' }),
    barcode: NullableText('Barcode.'),
    vendor_code: NullableText('Vendor code from the feed.'),
    brand: NullableText('Brand (the feed’s vendor).'),
    model: NullableText('Model.'),
    sales_rate: NullableInteger('Sales rate from the feed, or null.'),
    relative_sales_rate: NullableInteger('Null: not computed.'),
    picture: NullableText('Photo link.'),
    image_url: NullableText('Photo link.'),
    image_url_handle: NullableText('Photo link without scheme and host.'),
    image_url_resized: Type.Union([ProductImageLinksSchema, Type.Null()]),
    categories: Type.Array(ProductCategorySchema, {
      description: 'The offer’s categories, each preceded by its ancestors from the root.',
    }),
    discount_percent: Type.Integer({ description: '(oldprice − price) / oldprice in percent, half up; 0 without discount.' }),
    discount: Type.Boolean({ description: 'oldprice > price.' }),
    discount_formatted: Text('discount_percent with a percent sign, e.g. `20%`.'),
    price: NullableInteger('Price without its fraction.'),
    price_full: NullableNumber('Price with its fraction.'),
    price_formatted: NullableText('e.g. `19 990 ₽`.'),
    price_full_formatted: NullableText('e.g. `19 990.50 ₽`.'),
    oldprice: NullableInteger('Price before discount, without its fraction.'),
    oldprice_full: NullableNumber('Price before discount with its fraction.'),
    oldprice_formatted: NullableText('Formatted old price.'),
    oldprice_full_formatted: NullableText('Formatted old price with its fraction.'),
    currency: Text('Currency symbol of the shop.'),
    uniqid: Text('Offer id (article).'),
    id: Text('Offer id (article).'),
    group_id: NullableText('Group id of a variant.'),
    widgetable: Type.Boolean({ description: 'Price, category, name and link are all present.' }),
    ignored: Type.Boolean({ description: 'Left out of recommendations and search.' }),
    locations: Type.Record(Type.String(), ProductLocationSchema, {
      description: 'Where the offer is sold, by location id; `{}` = everywhere.',
    }),
    params: Type.Array(ProductParamSchema),
  },
  { description: 'A product of the feed (interface.md, "Product").' },
);

export type Product = Static<typeof ProductSchema>;
export type ProductCategory = Static<typeof ProductCategorySchema>;
export type ProductParam = Static<typeof ProductParamSchema>;
export type ProductImageLinks = Static<typeof ProductImageLinksSchema>;
