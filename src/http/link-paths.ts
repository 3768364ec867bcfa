import type { FastifyReply } from 'fastify';

/**
 * The links in sent emails live under /m/ (public-api/messaging/links.plugin.ts): mail
 * clients and browsers open them, read no envelope, and must not learn which part of a
 * link was wrong (docs/messaging.md "Tracking"). Every refusal of one, whichever layer
 * makes it (the router, validation, the route, the unknown-route handler), is the same
 * bare 404.
 */

const NOT_FOUND = 'Not found\n';

export function isLinkPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/m' || path.startsWith('/m/');
}

export function sendLinkNotFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('text/plain; charset=utf-8').send(NOT_FOUND);
}
