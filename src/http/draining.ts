import type { FastifyInstance } from 'fastify';

/**
 * The drain before a shutdown (docs/shutdown.md): once begun, /ready answers 503 so that a
 * load balancer stops sending new requests here, while every other request is still served.
 * Each answer given meanwhile carries `Connection: close`, so that a kept-alive client (a
 * balancer's pooled connection, say) opens its next request elsewhere instead of finding
 * its idle connection closed under it when the server stops.
 */
export class DrainState {
  private begun = false;

  get draining(): boolean {
    return this.begun;
  }

  begin(): void {
    this.begun = true;
  }
}

/**
 * Adds `Connection: close` to every answer sent once the drain has begun, including those
 * of requests that started before it (a request still in flight when the server stops
 * accepting would otherwise leave its connection open and idle for the keep-alive timeout).
 */
export function closeConnectionsWhileDraining(app: FastifyInstance, state: DrainState): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (state.draining) void reply.header('connection', 'close');
    done(null, payload);
  });
}
