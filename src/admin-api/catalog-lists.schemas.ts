import { Type, type Static } from '@sinclair/typebox';
import { CursorQuerySchema, limitQuerySchema, pageSchema } from './paging.js';

/** The admin UI's catalog lists (docs/admin-lists.md). */

export const LIST_PAGE_DEFAULT = 50;
export const LIST_PAGE_MAX = 200;

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Number>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const ProductBrowseQuerySchema = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'An offer id (exact), or a part of the product name (Latin letters in any case).',
      }),
    ),
    category: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: "A feed category id: the products listed in it directly (not its subcategories').",
      }),
    ),
    available: Type.Optional(Type.Boolean({ description: 'true: in stock only; false: out of stock only.' })),
    limit: limitQuerySchema(LIST_PAGE_DEFAULT, LIST_PAGE_MAX),
    cursor: CursorQuerySchema,
  },
  { additionalProperties: false },
);
export type ProductBrowseQuery = Static<typeof ProductBrowseQuerySchema>;

export const PageQuerySchema = Type.Object(
  { limit: limitQuerySchema(LIST_PAGE_DEFAULT, LIST_PAGE_MAX), cursor: CursorQuerySchema },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuerySchema>;

export const BrowsedProductSchema = Type.Object({
  id: Type.String({ description: 'Offer id.' }),
  name: Nullable(Type.String(), 'Name, as the feed gave it.'),
  url: Nullable(Type.String(), 'Product page.'),
  price: Nullable(Type.Number(), 'Price in currency units.'),
  oldprice: Nullable(Type.Number(), 'Price before the discount, in currency units.'),
  available: Type.Boolean({ description: 'In stock.' }),
  widgetable: Type.Boolean({ description: 'Shown by the storefront (listings, widgets); false: hidden.' }),
  category_ids: Type.Array(Type.String(), { description: 'Feed category ids.' }),
  vendor: Nullable(Type.String(), 'Brand.'),
  picture: Nullable(Type.String(), "The first picture's link."),
  picture_error: Nullable(Type.String(), "Why the first picture's download failed; null when it did not fail."),
});
export type BrowsedProductBody = Static<typeof BrowsedProductSchema>;

export const ProductPageSchema = pageSchema(BrowsedProductSchema, 'Products of the served catalog by offer id.');

export const CategoryQuerySchema = Type.Object(
  {
    parent: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'A feed category id: its children; absent: the top level.' }),
    ),
    limit: limitQuerySchema(LIST_PAGE_DEFAULT, LIST_PAGE_MAX),
    cursor: CursorQuerySchema,
  },
  { additionalProperties: false },
);
export type CategoryQuery = Static<typeof CategoryQuerySchema>;

export const CategoryNodeSchema = Type.Object({
  id: Type.Integer({ description: "Patron's stable category id." }),
  external_id: Type.String({ description: "The feed's category id." }),
  parent_external_id: Nullable(Type.String(), "The parent's feed id; null at the top level."),
  name: Type.String(),
  url: Nullable(Type.String(), 'Category page.'),
  level: Type.Integer({ description: 'Depth: 1 at the top level.' }),
  product_count: Type.Integer({ description: 'Products the served import counted in the category.' }),
  has_children: Type.Boolean({ description: 'Whether it has subcategories (ask with `parent` set to its external_id).' }),
});

export const CategoryPageSchema = pageSchema(CategoryNodeSchema, 'One level of the category tree, by stable id.');

export const NoResultQuerySchema = Type.Object({
  query: Type.String({ description: 'The query as normalised.' }),
  quantity: Type.Integer({ description: 'How many times it was searched in the last two weeks and found nothing.' }),
});

export const NoResultPageSchema = pageSchema(
  NoResultQuerySchema,
  'Full searches of the last two weeks that found nothing, most frequent first (counted at most once a minute).',
);
