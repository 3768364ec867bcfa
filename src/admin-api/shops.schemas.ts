import { Type, type Static } from '@sinclair/typebox';
import { CURRENCY_PATTERN, SHOP_ID_PATTERN } from '../modules/shops/domain/shop.js';

const ShopName = Type.String({ minLength: 1, maxLength: 200, description: 'Display name, 1 to 200 characters.' });
const Currency = Type.String({
  pattern: CURRENCY_PATTERN.source,
  description: 'ISO 4217 currency code.',
  examples: ['RUB'],
});
const Timezone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone; paid_till is a date in this zone.',
  examples: ['Europe/Moscow'],
});
/** The last paid day (the shop serves through its end); null means no payment limit. */
const PaidTill = Type.Union([Type.String({ format: 'date' }), Type.Null()], {
  description: 'Last paid day, YYYY-MM-DD in the shop time zone; null for no payment limit.',
});
const ShopSecret = Type.String({ description: 'The shop API secret; shown in full only on creation and rotation.' });

const shopFields = {
  name: ShopName,
  currency: Currency,
  timezone: Timezone,
  active: Type.Boolean(),
  restricted: Type.Boolean(),
  paid_till: PaidTill,
};

/** A shop as the admin API shows it: never with its secret. */
export const ShopSchema = Type.Object(
  { shop_id: Type.String({ pattern: SHOP_ID_PATTERN.source }), ...shopFields },
  { description: 'The shop, without its secret.' },
);
export type ShopBody = Static<typeof ShopSchema>;

/** admin-api.md, Shops: the creation answer is the only one besides rotation that carries the secret. */
export const CreatedShopSchema = Type.Object(
  { shop_id: ShopSchema.properties.shop_id, shop_secret: ShopSecret, ...shopFields },
  { description: 'The new shop with its secret.' },
);
export type CreatedShopBody = Static<typeof CreatedShopSchema>;

export const ShopListSchema = Type.Object({ shops: Type.Array(ShopSchema) }, { description: 'Every shop, oldest first.' });
export type ShopListBody = Static<typeof ShopListSchema>;

export const CreateShopBodySchema = Type.Object(
  {
    name: ShopName,
    currency: Type.Optional(Currency),
    timezone: Type.Optional(Timezone),
  },
  { additionalProperties: false },
);
export type CreateShopBody = Static<typeof CreateShopBodySchema>;

export const UpdateShopBodySchema = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ description: 'An inactive shop does not serve the public API.' })),
    restricted: Type.Optional(Type.Boolean({ description: 'A restricted shop does not serve the public API.' })),
    paid_till: Type.Optional(PaidTill),
    name: Type.Optional(ShopName),
  },
  { additionalProperties: false },
);
export type UpdateShopBody = Static<typeof UpdateShopBodySchema>;

export const RotatedSecretSchema = Type.Object({ shop_secret: ShopSecret }, { description: 'The new secret.' });
export type RotatedSecretBody = Static<typeof RotatedSecretSchema>;
