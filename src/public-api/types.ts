import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { EnvelopeFamily } from '../http/envelopes.js';
import type { PublicInput } from '../http/input.js';
import type { Shop } from '../modules/shops/domain/shop.js';

/**
 * Credentials a public route needs (interface.md, "Authentication" 2 and 3):
 * `shop` = shop_id only, `shop+secret` = shop_id and shop_secret.
 */
export const PUBLIC_AUTH_MODES = ['none', 'shop', 'shop+secret'] as const;
export type PublicAuth = (typeof PUBLIC_AUTH_MODES)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Public scope (required there): the envelope family of the route. */
    envelope?: EnvelopeFamily;
    /** Public scope (required there): which credentials the route checks. */
    auth?: PublicAuth;
    /**
     * Public scope: resolve the shop but leave the active/restricted/paid check to the
     * route, which calls assertShopServing at its point of the order (POST /push checks
     * `did` between "shop exists" and "shop state").
     */
    deferShopState?: boolean;
  }

  interface FastifyRequest {
    /** Public scope only: merged parameters (query string, then body), set before validation. */
    input: PublicInput;
    /** Public scope only: the shop resolved from shop_id for routes with `auth` other than `none`. */
    shop: Shop | null;
  }
}

export type PublicScope = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A group of public routes: registers its routes on the public scope (in a child context). */
export type PublicRouteModule = (scope: PublicScope) => void | Promise<void>;
