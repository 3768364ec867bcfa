import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import { statusSuccess } from '../../http/envelopes.js';
import { readInteger } from '../../http/readers.js';
import { authenticatedShop } from '../auth.js';
import { StatusOkSchema, statusResponses } from '../common/envelopes.schemas.js';
import { DEVICE_NOT_FOUND, readOptionalId } from '../common/identity.params.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import type { PublicRouteModule } from '../types.js';

const TAGS = ['popups'];

const PopupReportSchema = Type.Object(
  {
    shop_id: Type.String(),
    did: Type.String({ description: 'The device that showed the popup.' }),
    popup: Type.Union([Type.Integer(), Type.String()], { description: 'The popup’s `id`, a number or its decimal text.' }),
  },
  { additionalProperties: true, description: 'JSON body, form or query string; `sid`/`seance` are accepted and not needed.' },
);

const REPORTS = [
  {
    path: '/popup/showed',
    summary: 'The app showed a popup',
    description: 'Counted once per device however often it is sent; the device is never offered that popup again (docs/popups.md).',
  },
  {
    path: '/popup/clicked',
    summary: 'A popup’s button or link was clicked',
    description: 'Counted once per device. The official SDKs do not send it; an app or site that wants clicks counted does.',
  },
] as const;

/** POST /popup/showed (contract-notes "Beyond interface.md") and POST /popup/clicked: `{"status":"success"}`. */
export const popupRoutes: PublicRouteModule = (scope) => {
  const offers = scope.services.popupOffers;
  for (const report of REPORTS) {
    scope.post(
      report.path,
      {
        validatorCompiler: noSchemaValidation,
        config: { envelope: 'status', auth: 'shop' },
        schema: {
          tags: TAGS,
          summary: report.summary,
          description: report.description,
          body: PopupReportSchema,
          response: statusResponses(StatusOkSchema),
        },
      },
      async (request) => {
        const shop = authenticatedShop(request);
        const did = readOptionalId(request.input, 'did', { emptyIsAbsent: true });
        if (did === undefined) throw new AppError('VALIDATION_FAILED', 'Parameter `did` is required.', { field: 'did' });
        const popupId = readInteger(request.input, 'popup', { min: 1 });
        const mark = report.path === '/popup/showed' ? offers.markShown.bind(offers) : offers.markClicked.bind(offers);
        const outcome = await mark(shop.shopId, did, popupId);
        if (outcome === 'unknown_device') throw new AppError('NOT_FOUND', DEVICE_NOT_FOUND);
        if (outcome === 'unknown_popup') throw new AppError('NOT_FOUND', 'Popup not found');
        return statusSuccess();
      },
    );
  }
};
