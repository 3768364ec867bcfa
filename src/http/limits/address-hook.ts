import type { onRequestHookHandler } from 'fastify';
import type { RateLimiter } from './rate-limiter.js';

/**
 * The per-address limit as an onRequest hook of a scope that has no other work at that
 * point: it runs before anything is parsed (docs/limits.md), and a refusal goes to the
 * scope's error handler.
 */
export function addressLimitHook(limits: RateLimiter): onRequestHookHandler {
  return (request, _reply, done) => {
    try {
      limits.checkAddress(request.ip);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
}
