import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import { statusSuccess } from '../../http/envelopes.js';
import type { SdkOutcome } from '../../modules/messaging/outcomes.service.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { statusResponses } from '../common/envelopes.schemas.js';
import { popupField, StatusOkWithPopupSchema } from '../common/popup.js';
import { MESSAGING_TAGS } from './messaging.schemas.js';

const TrackBodySchema = Type.Object(
  {
    shop_id: Type.String({ description: 'The shop' }),
    stream: Type.Optional(Type.String({ description: 'Where the SDK runs (ios, android)' })),
    code: Type.String({ maxLength: 64, description: 'The message code the push carried in its data' }),
    type: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          "The push's data.type (bulk, chain, transactional); the native iOS SDK sends its event's type (web). The message is found by its code alone.",
      }),
    ),
  },
  { additionalProperties: true, description: 'Identity parameters (did, seance…) are accepted and not needed here.' },
);

const OUTCOMES: readonly SdkOutcome[] = ['delivered', 'opened', 'clicked'];
const CODE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The mobile SDK's reports on a push it showed (docs/mobile-sdk.md, "Push notifications";
 * docs/messaging.md, "Tracking"): delivered, opened, clicked. Each sets the statistic once
 * on the message's mobile_push delivery; a later step implies the earlier ones. A code the
 * shop did not send (or a test send) changes nothing and is answered the same, as the SDK
 * reads no more than the envelope and a report is not worth retrying.
 */
export const trackRoutes: PublicRouteModule = (scope) => {
  const { messageOutcomes } = scope.services;
  for (const outcome of OUTCOMES) {
    scope.post(
      `/track/${outcome}`,
      {
        validatorCompiler: noSchemaValidation,
        config: { envelope: 'status', auth: 'shop' },
        schema: {
          tags: MESSAGING_TAGS,
          summary: `The mobile SDK reports a push ${outcome}`,
          body: TrackBodySchema,
          response: statusResponses(StatusOkWithPopupSchema),
        },
      },
      async (request) => {
        const shop = authenticatedShop(request);
        const code = request.input.code;
        if (typeof code !== 'string' || !CODE.test(code)) {
          throw new AppError('VALIDATION_FAILED', 'Parameter `code` must be the message code.', { field: 'code' });
        }
        await messageOutcomes.sdkReport(shop.shopId, code, outcome);
        return statusSuccess(await popupField(request));
      },
    );
  }
};
