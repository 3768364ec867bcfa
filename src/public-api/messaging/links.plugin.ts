import type { FastifyPluginCallback } from 'fastify';
import { describeError } from '../../http/http-errors.js';
import { addressLimitHook } from '../../http/limits/address-hook.js';
import { sendLinkNotFound } from '../../http/link-paths.js';

/**
 * The links a sent email carries (docs/messaging.md, "Tracking"): `/m/{token}/o` the open
 * pixel, `/m/{token}/c` a click redirect, `/m/{token}/u` the unsubscribe page and its
 * RFC 8058 one-click POST. The token is `<shop_id>.<code>` and every link is signed
 * (domain/tracking-links.ts). Outside the public API's plumbing: mail clients send no shop
 * keys and read no envelopes. Anything not signed by this server is a plain 404: a click
 * link with a changed target never redirects, and no answer tells why.
 */

const tags = ['messaging'];
// The smallest transparent GIF: 1x1, one colour, transparent.
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const Token = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}\\.[A-Za-z0-9_-]{1,64}$' } as const;
const Signature = { type: 'string', maxLength: 64 } as const;
const Params = { type: 'object', properties: { token: Token }, required: ['token'] } as const;
const SignedQuery = { type: 'object', properties: { s: Signature } } as const;
const ClickQuery = { type: 'object', properties: { s: Signature, u: { type: 'string', maxLength: 8_192 } } } as const;

interface Signed {
  Params: { token: string };
  Querystring: { s?: string; u?: string };
}

export const messagingLinksPlugin: FastifyPluginCallback = (app, _options, done) => {
  const { messageOutcomes } = app.services;

  app.setErrorHandler((error, request, reply) => {
    const view = describeError(error);
    if (view.internal) request.log.error({ err: error }, 'request failed');
    // A malformed token, signature or target (refused by the schemas with 422 or 400, an
    // oversize form with 413) is one more link this server did not sign: nothing tells
    // which part was wrong. Only the rate limit says what it is.
    if (view.status < 500 && view.status !== 429) return sendLinkNotFound(reply);
    return reply.code(view.status).type('text/plain; charset=utf-8').send(`${view.message}\n`);
  });
  app.addHook('onRequest', addressLimitHook(app.limits));
  // The one-click POST is a form, urlencoded or multipart (RFC 8058 §3.1); read as text here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4_096 }, (_request, body, next) => next(null, body));

  app.get<Signed>(
    '/m/:token/o',
    { schema: { tags, summary: 'Email open pixel', params: Params, querystring: SignedQuery, hide: true } },
    async (request, reply) => {
      if (!(await messageOutcomes.opened(request.params.token, request.query.s ?? ''))) return sendLinkNotFound(reply);
      return reply.code(200).header('cache-control', 'no-store, private').type('image/gif').send(PIXEL);
    },
  );

  app.get<Signed>(
    '/m/:token/c',
    { schema: { tags, summary: 'Email click redirect', params: Params, querystring: ClickQuery, hide: true } },
    async (request, reply) => {
      const location = await messageOutcomes.clicked(request.params.token, request.query.u ?? '', request.query.s ?? '');
      if (location === null) return sendLinkNotFound(reply);
      return reply.code(302).header('cache-control', 'no-store, private').header('location', location).send();
    },
  );

  app.get<Signed>(
    '/m/:token/u',
    { schema: { tags, summary: 'Email unsubscribe page', params: Params, querystring: SignedQuery, hide: true } },
    async (request, reply) => {
      const signature = request.query.s ?? '';
      if (!(await messageOutcomes.canUnsubscribe(request.params.token, signature))) return sendLinkNotFound(reply);
      const action = `?s=${encodeURIComponent(signature)}`;
      return reply
        .code(200)
        .header('cache-control', 'no-store, private')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
        .type('text/html; charset=utf-8')
        .send(confirmPage(action));
    },
  );

  app.post<Signed & { Body: string | undefined }>(
    '/m/:token/u',
    { schema: { tags, summary: 'One-click unsubscribe (RFC 8058)', params: Params, querystring: SignedQuery, hide: true } },
    async (request, reply) => {
      if (!isOneClick(request.body ?? '', request.headers['content-type'])) return sendLinkNotFound(reply);
      if (!(await messageOutcomes.unsubscribe(request.params.token, request.query.s ?? ''))) return sendLinkNotFound(reply);
      return reply.code(200).header('cache-control', 'no-store, private').type('text/html; charset=utf-8').send(donePage());
    },
  );

  done();
};

/** `List-Unsubscribe=One-Click` as a urlencoded field, or as a multipart field. */
export function isOneClick(body: string, contentType: string | undefined): boolean {
  if ((contentType ?? '').toLowerCase().startsWith('multipart/form-data')) {
    return /name="?List-Unsubscribe"?\s*\r?\n\r?\n\s*One-Click\s*(\r?\n|$)/i.test(body);
  }
  return new URLSearchParams(body).get('List-Unsubscribe') === 'One-Click';
}

function confirmPage(action: string): string {
  return page(
    'Unsubscribe',
    `<p>Stop receiving these emails?</p><form method="post" action="${action.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">` +
      '<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>',
  );
}

function donePage(): string {
  return page('Unsubscribed', '<p>You are unsubscribed from these emails.</p>');
}

function page(title: string, body: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<meta name="robots" content="noindex"><title>${title}</title></head>` +
    `<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><h1>${title}</h1>${body}</body></html>`
  );
}
