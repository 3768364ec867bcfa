import { Type, type Static } from '@sinclair/typebox';
import {
  COLLECTION_ID_MAX_LENGTH,
  COLLECTION_ID_PATTERN,
  MAX_COLLECTION_NAME_LENGTH,
  MAX_COLLECTION_PRODUCTS,
  MAX_PRODUCT_ID_LENGTH,
} from '../modules/collections/domain/collection.js';
import { ShopIdParam } from './common.schemas.js';

/**
 * Product collections (ours; the admin core leaves them open): a named list of offer ids
 * that GET /collection/{id} serves with the served catalog's product data. The schemas
 * bound every size; a blank name or an id with control characters is the collections
 * domain's rule, answered with a sentence naming the field. Decisions: docs/shopper-reads.md.
 */

const CollectionId = Type.String({
  minLength: 1,
  maxLength: COLLECTION_ID_MAX_LENGTH,
  pattern: COLLECTION_ID_PATTERN.source,
  description:
    `The id apps send as \`GET /collection/{id}\`: 1 to ${COLLECTION_ID_MAX_LENGTH} letters, digits, _ and - ` +
    '(the mobile SDKs send a number or a string).',
  examples: ['6', 'summer_sale'],
});

export const CollectionParamsSchema = Type.Object({ shop_id: ShopIdParam, id: CollectionId });
export type CollectionParams = Static<typeof CollectionParamsSchema>;

const ProductIds = Type.Array(Type.String({ minLength: 1, maxLength: MAX_PRODUCT_ID_LENGTH }), {
  maxItems: MAX_COLLECTION_PRODUCTS,
  description:
    `Offer ids (the feed's \`offer id\`) in display order, at most ${MAX_COLLECTION_PRODUCTS}; a repeated id is kept ` +
    'once, at its first place. Ids the feed does not have are kept and left out of the public answer until they are.',
  examples: [['1001', '1002']],
});

export const PutCollectionBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_COLLECTION_NAME_LENGTH, description: 'Name shown to operators.' }),
    product_ids: ProductIds,
  },
  { additionalProperties: false },
);
export type PutCollectionBody = Static<typeof PutCollectionBodySchema>;

const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

export const CollectionSchema = Type.Object({
  id: Type.String({ description: 'The collection id.' }),
  name: Type.String(),
  product_ids: Type.Array(Type.String(), { description: 'Offer ids in display order.' }),
  created_at: Timestamp('When the collection was first put.'),
  updated_at: Timestamp('When it was last replaced.'),
});
export type CollectionBody = Static<typeof CollectionSchema>;

export const CollectionListSchema = Type.Object({
  collections: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      product_count: Type.Integer({ description: 'How many offer ids the collection lists.' }),
      created_at: Timestamp('When the collection was first put.'),
      updated_at: Timestamp('When it was last replaced.'),
    }),
    { description: 'By id.' },
  ),
});
export type CollectionListBody = Static<typeof CollectionListSchema>;
