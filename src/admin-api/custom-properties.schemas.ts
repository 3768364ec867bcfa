import { Type, type Static } from '@sinclair/typebox';
import { PROPERTY_NAME_MAX_LENGTH } from '../modules/audience/custom-properties.service.js';
import { CUSTOM_PROPERTY_CODE_PATTERN, CUSTOM_PROPERTY_TYPES } from '../modules/audience/domain/custom-properties.js';
import { ShopIdParam } from './common.schemas.js';

const Code = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: CUSTOM_PROPERTY_CODE_PATTERN.source,
  description: 'The key audience records carry the value under; not a field of the record table.',
  examples: ['shoe_size'],
});
const PropertyType = Type.Union(
  CUSTOM_PROPERTY_TYPES.map((type) => Type.Literal(type)),
  { description: 'string (≤ 1000 characters), integer, float, boolean, date (YYYY-MM-DD), datetime (ISO 8601 with a zone).' },
);
const Name = Type.Union([Type.String({ maxLength: PROPERTY_NAME_MAX_LENGTH }), Type.Null()], { description: 'Optional display name.' });

export const CustomPropertySchema = Type.Object({ code: Code, type: PropertyType, name: Name }, { description: 'A custom user property.' });
export type CustomPropertyBody = Static<typeof CustomPropertySchema>;

export const CustomPropertyListSchema = Type.Object(
  { custom_properties: Type.Array(CustomPropertySchema) },
  { description: 'The custom properties of the shop, by code.' },
);

export const CreateCustomPropertyBodySchema = Type.Object(
  { code: Code, type: PropertyType, name: Type.Optional(Name) },
  { additionalProperties: false },
);

export const CustomPropertyParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  code: Type.String({ description: 'The property code.' }),
});
