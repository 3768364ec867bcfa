import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { schemeCredential } from '../../http/authorization.js';
import { addressLimitHook } from '../../http/limits/address-hook.js';
import { describeError } from '../../http/http-errors.js';
import type { BounceType } from '../../modules/messaging/outcomes.service.js';

/**
 * Bounce and complaint webhooks (docs/messaging.md, "Bounces and complaints"), called by
 * a mail relay or an email vendor rather than by shop code, so outside the public API's
 * plumbing: `Authorization: Bearer <secret>` with the shop's derived webhook secret (the
 * admin API shows it), compared in constant time. A wrong secret and an unknown shop are
 * the same 401. Answers are small JSON: `{"matched": true|false}` (false: no sent email of
 * ours fits, nothing changed; a relay need not retry).
 */

const JSON_UTF8 = 'application/json; charset=utf-8';
const TYPES: readonly BounceType[] = ['hard', 'soft', 'complaint'];
const ShopParams = {
  type: 'object',
  properties: { shopId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } },
  required: ['shopId'],
} as const;
const BounceBody = {
  type: 'object',
  properties: {
    message_id: { type: 'string', maxLength: 256 },
    code: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    email: { type: 'string', maxLength: 320 },
    type: { type: 'string', enum: TYPES },
    reason: { type: 'string', maxLength: 1000 },
  },
  required: ['type'],
} as const;
const Matched = { type: 'object', properties: { matched: { type: 'boolean' } } } as const;

interface Route {
  Params: { shopId: string };
}
type BounceRoute = Route & { Body: { message_id?: string; code?: string; email?: string; type: BounceType; reason?: string } };

class Unauthorized extends Error {}

export const messagingWebhooksPlugin: FastifyPluginCallback = (app, _options, done) => {
  const { messageOutcomes } = app.services;

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof Unauthorized) return void reply.code(401).type(JSON_UTF8).send({ message: 'Unauthorized' });
    const view = describeError(error);
    if (view.internal) request.log.error({ err: error }, 'request failed');
    void reply.code(view.status).type(JSON_UTF8).send({ message: view.message });
  });
  app.addHook('onRequest', addressLimitHook(app.limits));
  // A delivery status report is a whole message: taken as text, whatever its type says.
  app.addContentTypeParser(
    ['message/rfc822', 'multipart/report', 'text/plain'],
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_r, body, next) => next(null, body),
  );

  async function authorize(request: FastifyRequest): Promise<void> {
    const params = request.params as Route['Params'];
    const token = schemeCredential(request.headers.authorization, 'Bearer', 128) ?? '';
    if (!(await messageOutcomes.verifyWebhookSecret(params.shopId, token))) throw new Unauthorized();
  }

  app.post<BounceRoute>(
    '/webhooks/messaging/:shopId/bounce',
    {
      bodyLimit: 16_384,
      schema: {
        tags: ['messaging'],
        summary: 'Report a bounce or complaint of a sent email',
        description: 'Names the message by `code` or by `message_id` (the Message-ID Patron set, `<code.seq@patron>`).',
        params: ShopParams,
        body: BounceBody,
        response: { 200: Matched },
      },
      // Before the body is read or validated: an unauthenticated caller learns nothing more.
      onRequest: authorize,
    },
    async (request) => {
      const b = request.body;
      const matched = await messageOutcomes.bounce(request.params.shopId, {
        type: b.type,
        ...(b.code !== undefined && { code: b.code }),
        ...(b.message_id !== undefined && { messageId: b.message_id }),
        ...(b.email !== undefined && { email: b.email }),
        ...(b.reason !== undefined && { reason: b.reason }),
      });
      return { matched };
    },
  );

  app.post<Route & { Body: string }>(
    '/webhooks/messaging/:shopId/dsn',
    {
      schema: {
        tags: ['messaging'],
        summary: 'Report a delivery status notification (RFC 3464) of a sent email',
        description: 'The raw report message, as the mail relay received it (message/rfc822, multipart/report or text/plain).',
        params: ShopParams,
        response: { 200: Matched },
      },
      // Before the body is read or validated: an unauthenticated caller learns nothing more.
      onRequest: authorize,
    },
    async (request) => {
      const result = await messageOutcomes.dsn(request.params.shopId, typeof request.body === 'string' ? request.body : '');
      return { matched: result.bounces > 0 };
    },
  );

  done();
};
