// Brings @fastify/swagger's route-schema fields (tags, summary, security) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** admin-api.md: every admin error is `{"error":{"code":"SCREAMING_SNAKE","message":"one sentence"}}`. */
export const ErrorResponseSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable code.', examples: ['NOT_FOUND'] }),
      message: Type.String({ description: 'One human-readable sentence.' }),
    }),
  },
  { description: 'Error' },
);
export type ErrorResponse = Static<typeof ErrorResponseSchema>;

/** The OpenAPI security requirement of every admin route; the scheme itself is declared with the document. */
export const ADMIN_SECURITY = [{ adminToken: [] as string[] }];

/**
 * Error statuses any admin route can answer: malformed request, bad token, a user's role
 * or shops that do not reach it (docs/admin-users.md), text the
 * text rule refuses in any path, query or body value (http/text-rule.ts), rate limited
 * (with Retry-After, docs/limits.md), an unexpected fault.
 */
type CommonErrorStatus = 400 | 401 | 403 | 422 | 429 | 500;
const COMMON_ERROR_STATUSES: readonly CommonErrorStatus[] = [400, 401, 403, 422, 429, 500];
/** Further statuses a route can answer, listed with it (422 is common: the text rule). */
export type ErrorStatus = 403 | 404 | 409 | 413 | 415;

/**
 * Response schemas of a route: its success shapes plus the error envelope under each
 * error status it can answer, so that the OpenAPI document lists them all.
 */
export function withErrors<S extends Record<number, TSchema>, E extends ErrorStatus>(
  success: S,
  errors: readonly E[],
): S & Record<E | CommonErrorStatus, typeof ErrorResponseSchema> {
  const responses: Record<number, TSchema> = { ...success };
  for (const status of [...COMMON_ERROR_STATUSES, ...errors]) responses[status] = ErrorResponseSchema;
  return responses as S & Record<E | CommonErrorStatus, typeof ErrorResponseSchema>;
}

/** Path parameter `shop_id`; a malformed id is simply an unknown shop (404), as on the public side. */
export const ShopIdParam = Type.String({ description: 'The shop id: 30 hexadecimal characters.' });

export const ShopIdParamsSchema = Type.Object({ shop_id: ShopIdParam });
export type ShopIdParams = Static<typeof ShopIdParamsSchema>;
