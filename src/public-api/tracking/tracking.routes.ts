import { AppError } from '../../errors.js';
import { statusSuccess } from '../../http/envelopes.js';
import { currencySymbol } from '../../modules/shops/domain/currency.js';
import { assertShopServing, authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { statusResponses } from '../common/envelopes.schemas.js';
import { popupField, StatusOkWithPopupSchema } from '../common/popup.js';
import { DEVICE_NOT_FOUND, readRequiredDid } from '../common/identity.params.js';
import { toInitInput } from './init.params.js';
import { toCustomEventInput } from './push-custom.params.js';
import { EVENT_NOT_VALID, toPushEventInput } from './push.params.js';
import { InitQuerySchema, InitResponseSchema, PushBodySchema, PushCustomBodySchema, TRACKING_TAGS } from './tracking.schemas.js';

/**
 * The tracking group of the public API: GET /init, POST /push and POST /push/custom
 * (interface.md endpoints 17 and 1, contract-notes "Identifiers", "POST /push",
 * "POST /push/custom"). Each handler parses with its *.params.ts mapper, calls one
 * tracking service function and answers in the contract's envelope.
 */
export const trackingRoutes: PublicRouteModule = (scope) => {
  const tracking = scope.services.tracking;

  scope.get(
    '/init',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      schema: {
        tags: TRACKING_TAGS,
        summary: 'Issue a device id and a session id',
        description:
          'Without `did` a new device is created; a well-formed `sid` the server never issued opens a session. ' +
          'Errors answer in the status envelope.',
        querystring: InitQuerySchema,
        response: statusResponses(InitResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      // Only a call that creates a device spends the address's device budget.
      const { did, sid } = await tracking.initSession(toInitInput(request.input, shop.shopId), () =>
        scope.limits.checkDeviceCreation(request.ip),
      );
      return { did, seance: sid, sid, currency: currencySymbol(shop.currency), ...(await popupField(request, { did })) };
    },
  );

  scope.post(
    '/push',
    {
      // The did is checked between "shop exists" and "shop state" (interface.md, POST /push table).
      config: { envelope: 'status', auth: 'shop', deferShopState: true },
      validatorCompiler: noSchemaValidation,
      schema: {
        tags: TRACKING_TAGS,
        summary: 'Track a behavioural event',
        description:
          'Events view, category, search, cart, remove_from_cart, wish, remove_wish and purchase, and recone_view / ' +
          'recone_click (a recommendation block shown or clicked: campaign, inventory, position). Checked in the ' +
          'order of the status table of interface.md: shop_id, did, shop state, event, items, optional fields.',
        body: PushBodySchema,
        response: statusResponses(StatusOkWithPopupSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const did = readRequiredDid(request.input);
      if (!(await tracking.deviceExists(shop.shopId, did))) throw new AppError('NOT_FOUND', DEVICE_NOT_FOUND);
      assertShopServing(request);
      await tracking.recordPush(toPushEventInput(request.input, shop.shopId, did));
      return statusSuccess(await popupField(request, { did }));
    },
  );

  scope.post(
    '/push/custom',
    {
      config: { envelope: 'status', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      schema: {
        tags: TRACKING_TAGS,
        summary: 'Track a custom event',
        description:
          'The event code must have been created for the shop in the admin API. A `did` must have been registered by ' +
          'GET /init (404 `Device not found` otherwise).',
        body: PushCustomBodySchema,
        response: statusResponses(StatusOkWithPopupSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const input = toCustomEventInput(request.input, shop.shopId, scope.clock.now());
      const result = await tracking.recordCustom(input);
      if (!result.ok && result.reason === 'unknown_device') throw new AppError('NOT_FOUND', DEVICE_NOT_FOUND);
      if (!result.ok) throw new AppError('VALIDATION_FAILED', EVENT_NOT_VALID, { field: 'event' });
      return statusSuccess(await popupField(request));
    },
  );
};
