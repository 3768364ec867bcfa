import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors.js';
import type { PopupInput, PopupWithFigures } from '../modules/popups/popups.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  CreatePopupBodySchema,
  PopupListSchema,
  PopupParamsSchema,
  PopupSchema,
  UpdatePopupBodySchema,
  type PopupBody,
  type UpdatePopupBody,
} from './popups.schemas.js';

const tags = ['popups'];

/** admin-api.md "Popups": what GET /init and the tracking answers carry (docs/popups.md). */
export const popupsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const popups = app.services.popups;

  app.post(
    '/shops/:shop_id/popups',
    {
      schema: {
        tags,
        summary: 'Create a popup',
        description: 'A field the popup cannot hold (HTML with script, a javascript: link …) is refused with 422 naming it.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreatePopupBodySchema,
        response: withErrors({ 201: PopupSchema }, [404]),
      },
    },
    async (request, reply) => reply.code(201).send(toBody(await popups.createPopup(request.params.shop_id, toInput(request.body)))),
  );

  app.get(
    '/shops/:shop_id/popups',
    {
      schema: {
        tags,
        summary: 'List popups with their figures',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: PopupListSchema }, [404]),
      },
    },
    async (request) => ({ popups: (await popups.listPopups(request.params.shop_id)).map(toBody) }),
  );

  app.get(
    '/shops/:shop_id/popups/:id',
    {
      schema: {
        tags,
        summary: 'Get a popup with its figures',
        security: ADMIN_SECURITY,
        params: PopupParamsSchema,
        response: withErrors({ 200: PopupSchema }, [404]),
      },
    },
    async (request) => toBody(await popups.getPopup(request.params.shop_id, popupId(request.params.id))),
  );

  app.patch(
    '/shops/:shop_id/popups/:id',
    {
      schema: {
        tags,
        summary: 'Change a popup',
        description: 'The fields given replace those of the popup; the popup as it becomes is checked whole.',
        security: ADMIN_SECURITY,
        params: PopupParamsSchema,
        body: UpdatePopupBodySchema,
        response: withErrors({ 200: PopupSchema }, [404]),
      },
    },
    async (request) => toBody(await popups.updatePopup(request.params.shop_id, popupId(request.params.id), toInput(request.body))),
  );

  app.delete(
    '/shops/:shop_id/popups/:id',
    {
      schema: {
        tags,
        summary: 'Delete a popup and its figures',
        security: ADMIN_SECURITY,
        params: PopupParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await popups.deletePopup(request.params.shop_id, popupId(request.params.id));
      return reply.code(204).send(null);
    },
  );

  done();
};

function popupId(raw: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new AppError('NOT_FOUND', 'The popup does not exist.');
  return Number(raw);
}

function time(value: string | null | undefined, field: string): number | null | undefined {
  if (value === undefined || value === null) return value;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new AppError('VALIDATION_FAILED', `Field \`${field}\` must be an ISO 8601 time.`, { field });
  return ms;
}

function toInput(body: UpdatePopupBody): PopupInput {
  return {
    name: body.name,
    status: body.status,
    position: body.position,
    delay: body.delay,
    streams: body.streams,
    screens: body.screens,
    channels: body.channels,
    html: body.html,
    components: body.components,
    actions: body.actions,
    webPushSystem: body.web_push_system,
    segmentId: body.segment_id,
    startsAt: time(body.starts_at, 'starts_at'),
    endsAt: time(body.ends_at, 'ends_at'),
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toBody(popup: PopupWithFigures): PopupBody {
  return {
    id: popup.id,
    name: popup.name,
    status: popup.status,
    position: popup.position,
    delay: popup.delay,
    streams: popup.streams as PopupBody['streams'],
    screens: [...popup.screens],
    channels: popup.channels as PopupBody['channels'],
    html: popup.html,
    components: { ...popup.components },
    actions: popup.actions,
    web_push_system: popup.webPushSystem,
    segment_id: popup.segmentId,
    starts_at: iso(popup.startsAt),
    ends_at: iso(popup.endsAt),
    created_at: new Date(popup.createdAt).toISOString(),
    updated_at: new Date(popup.updatedAt).toISOString(),
    shown: popup.shown,
    clicks: popup.clicks,
  };
}
