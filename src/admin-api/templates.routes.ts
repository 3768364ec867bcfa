import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { TemplateChannel } from '../modules/messaging/index.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  TemplatePreviewBodySchema,
  TemplatePreviewSchema,
  TemplateTestBodySchema,
  TemplateTestSchema,
  type TemplatePreviewBody,
} from './templates.schemas.js';

const tags = ['messaging'];

/** The template editor (docs/messaging-templates.md, "Preview and test send"): any template, saved or not. */
export const templatesRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { templates } = app.services;

  app.post(
    '/shops/:shop_id/templates/preview',
    {
      // A render that changes nothing: an editor previews as the user types, and none of it is a change to audit.
      config: { audit: false },
      schema: {
        tags,
        summary: 'Render any template without sending',
        description:
          "One channel of a template (a transactional mailing's, a chain step's, a bulk mailing's) rendered by the send path's " +
          'renderer, under its limits, with a customer of the shop (`profile_id`) or the sample profile. A template that does ' +
          'not parse or render is answered 200 with `errors` at their line, not refused. 429 when the shop has spent its render time.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: TemplatePreviewBodySchema,
        response: withErrors({ 200: TemplatePreviewSchema }, [404, 413, 415]),
      },
    },
    async (request) => {
      const preview = await templates.preview(request.params.shop_id, inputOf(request.body));
      return { ...preview, rendered: preview.rendered === null ? null : { ...preview.rendered }, errors: [...preview.errors] };
    },
  );

  app.post(
    '/shops/:shop_id/templates/test',
    {
      schema: {
        tags,
        summary: 'Send any template as a test',
        description:
          "Through the shop's configured channel to `to` (or the devices of `profile_id` for push and wallet): in the delivery " +
          'log with `test: true`, out of the history and statistics, without tracking links. 422 for a template that does not ' +
          'parse or a channel not configured; 429 past 30 test sends an hour per shop.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: TemplateTestBodySchema,
        response: withErrors({ 200: TemplateTestSchema }, [404, 413, 415]),
      },
    },
    async (request) => {
      const { to } = request.body;
      return templates.testSend(request.params.shop_id, { ...inputOf(request.body), ...(to !== undefined && { to }) });
    },
  );

  done();
};

function inputOf(body: Omit<TemplatePreviewBody, 'locale'> & { locale?: string }) {
  return {
    channel: body.channel as TemplateChannel,
    template: body.template,
    ...(body.profile_id !== undefined && { profileId: body.profile_id }),
    ...(body.variables !== undefined && { variables: body.variables }),
    ...(body.locale !== undefined && { locale: body.locale }),
  };
}
