import { Type, type Static } from '@sinclair/typebox';
import { ShopIdParam } from './common.schemas.js';
import { CursorQuerySchema, limitQuerySchema, pageSchema } from './paging.js';
import { CodeText } from './promo-codes.schemas.js';

/** admin-api.md, "Promotions, promo codes, certificates": certificates (docs/promotions.md, "Certificates"). */
export const CreateCertificateBodySchema = Type.Object(
  {
    code: CodeText,
    amount: Type.Number({ description: 'The face value: an amount greater than 0, two decimals at most.' }),
    pool_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A pool of the shop (POST …/certificate-pools).' }),
    ),
    expires_at: Type.Optional(
      Type.String({ format: 'date-time', maxLength: 64, description: 'When it stops paying (exclusive); in the future.' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateCertificateBody = Static<typeof CreateCertificateBodySchema>;

export const CertificateSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    pool_id: Type.Union([Type.Integer(), Type.Null()]),
    amount: Type.Number({ description: 'The face value.' }),
    balance: Type.Number({ description: 'What is left to spend (held amounts included).' }),
    held: Type.Number({ description: 'Held by applied orders not yet confirmed or cancelled.' }),
    expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A gift certificate.' },
);
export type CertificateBody = Static<typeof CertificateSchema>;

export const CreatePoolBodySchema = Type.Object({ name: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false });
export const PoolSchema = Type.Object({ id: Type.Integer(), name: Type.String() }, { description: 'A certificate pool.' });

export const CertificateParamsSchema = Type.Object({ shop_id: ShopIdParam, code: Type.String({ maxLength: 255 }) });

export const CERTIFICATE_PAGE_DEFAULT = 50;
export const CERTIFICATE_PAGE_MAX = 200;

export const PoolListQuerySchema = Type.Object(
  { limit: limitQuerySchema(CERTIFICATE_PAGE_DEFAULT, CERTIFICATE_PAGE_MAX), cursor: CursorQuerySchema },
  { additionalProperties: false },
);

export const PoolListItemSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});
export const PoolListSchema = pageSchema(PoolListItemSchema, 'Certificate pools, oldest first.');

export const CertificateStatusSchema = Type.Union([Type.Literal('active'), Type.Literal('spent'), Type.Literal('expired')], {
  description: '`active`: money left and not expired; `spent`: balance 0; `expired`: money left, past `expires_at`.',
});

export const CertificateListQuerySchema = Type.Object(
  {
    pool: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only the certificates of this pool.' })),
    status: Type.Optional(CertificateStatusSchema),
    limit: limitQuerySchema(CERTIFICATE_PAGE_DEFAULT, CERTIFICATE_PAGE_MAX),
    cursor: CursorQuerySchema,
  },
  { additionalProperties: false },
);

export const CertificateListItemSchema = Type.Object({ ...CertificateSchema.properties, status: CertificateStatusSchema });
export const CertificateListSchema = pageSchema(CertificateListItemSchema, 'Gift certificates, newest first.');
