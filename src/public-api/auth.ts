import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { EnvelopeFamily } from '../http/envelopes.js';
import type { Shop, ShopServingState } from '../modules/shops/domain/shop.js';
import type { ShopWithCredentials } from '../modules/shops/shops.service.js';

/**
 * Credential checks of the public scope, in the order of contract-notes "Secrets and
 * errors" (the /push table): shop_id absent 401, malformed 422, unknown 404, secret
 * missing or wrong 401, shop not serving 403.
 *
 * interface.md says shop_id is "30 hexadecimal characters" without a case; ids are
 * issued in lower case, so upper-case hex is accepted and compared lower-cased.
 */
const SHOP_ID_FORMAT = /^[0-9a-fA-F]{30}$/;

/** interface.md, "Errors": the wording differs by envelope family. */
export const SECRET_MESSAGES: Readonly<Record<EnvelopeFamily, string>> = {
  status: 'Invalid secret key',
  bare: 'Invalid secret key',
  success: 'API secret is not correct',
};

export const SHOP_NOT_FOUND_MESSAGE = 'Shop not found';

const STATE_MESSAGES: Readonly<Record<Exclude<ShopServingState, 'serving'>, string>> = {
  inactive: 'Shop is not active.',
  restricted: 'Shop is restricted.',
  unpaid: 'Shop payment has expired.',
};

/** The preValidation step for every public route; a no-op for `auth: 'none'`. */
export async function authenticateShop(request: FastifyRequest): Promise<void> {
  const { auth, envelope, deferShopState } = request.routeOptions.config;
  if (auth === undefined || auth === 'none') return;
  const shops = request.server.services.shops;
  const limits = request.server.limits;
  // An address that spent its wrong secrets is refused before anything is checked, a
  // right secret included: otherwise the answers would still tell a guess that hits.
  if (auth === 'shop+secret') limits.checkCredentialAttempt('shop_secret', request.ip);

  const shopId = request.input.shop_id;
  if (shopId === undefined) throw new AppError('UNAUTHORIZED', 'Parameter `shop_id` is required.', { field: 'shop_id' });
  if (typeof shopId !== 'string' || !SHOP_ID_FORMAT.test(shopId)) {
    throw new AppError('VALIDATION_FAILED', 'Parameter `shop_id` must be 30 hexadecimal characters.', {
      field: 'shop_id',
    });
  }
  if (auth === 'shop+secret') {
    // Read afresh every time: a rotated secret stops working at once, in every process.
    const credentials = await shops.findShopWithCredentials(shopId.toLowerCase());
    if (!credentials) throw new AppError('NOT_FOUND', SHOP_NOT_FOUND_MESSAGE);
    // A missing secret gets the same answer as a wrong one.
    if (!isGivenSecret(request, credentials)) throw new AppError('UNAUTHORIZED', SECRET_MESSAGES[envelope ?? 'status']);
    request.shop = credentials.shop;
  } else {
    const shop = await shops.findShopForPublicRead(shopId.toLowerCase());
    if (!shop) throw new AppError('NOT_FOUND', SHOP_NOT_FOUND_MESSAGE);
    request.shop = shop;
  }
  limits.checkShop(request.shop.shopId);

  if (!deferShopState) assertShopServing(request);
}

/** The shop of an authenticated public request; a programming error when there is none. */
export function authenticatedShop(request: FastifyRequest): Shop {
  if (!request.shop) throw new Error(`Route ${request.routeOptions.url ?? ''} has no authenticated shop (auth: none?).`);
  return request.shop;
}

/**
 * 403 unless the shop is active, not restricted and paid (interface.md, Authentication
 * 4). Called by the auth step, or by a route with `deferShopState` at its own point.
 */
export function assertShopServing(request: FastifyRequest): Shop {
  const shop = authenticatedShop(request);
  const state = request.server.services.shops.servingState(shop);
  if (state !== 'serving') throw new AppError('FORBIDDEN', STATE_MESSAGES[state]);
  return shop;
}

/**
 * For routes where `shop_secret` is optional and widens what the caller may do (a
 * server looking a customer up by email rather than by its device): true with the
 * right secret, false without one; a wrong secret is 401, never a quiet downgrade.
 * Compared in constant time, like the `shop+secret` mode.
 */
export async function hasShopSecret(request: FastifyRequest): Promise<boolean> {
  const secret = request.input.shop_secret;
  if (secret === undefined || secret === '') return false;
  // A secret given here is a guess like any other: the same failure limit as `shop+secret`.
  request.server.limits.checkCredentialAttempt('shop_secret', request.ip);
  const shop = authenticatedShop(request);
  const credentials = await request.server.services.shops.findShopWithCredentials(shop.shopId);
  if (!credentials || !isGivenSecret(request, credentials)) {
    throw new AppError('UNAUTHORIZED', SECRET_MESSAGES[request.routeOptions.config.envelope ?? 'status']);
  }
  return true;
}

/**
 * Whether the request's `shop_secret` is the shop's (compared in constant time by
 * verifySecret), under the address's failure limit (docs/limits.md): a wrong one counts,
 * and an address that spent its failures is refused with 429 without a comparison.
 */
function isGivenSecret(request: FastifyRequest, credentials: ShopWithCredentials): boolean {
  const secret = request.input.shop_secret;
  if (typeof secret !== 'string' || secret === '') return false;
  const shops = request.server.services.shops;
  return request.server.limits.attemptCredential('shop_secret', request.ip, () => shops.verifySecret(credentials, secret));
}
