import type { FastifyRequest } from 'fastify';

/**
 * The app validates without type coercion (app.ts: a number sent as a string in a body
 * is an error), so an integer query parameter, which is always text, is read here, in a
 * route's preValidation: a decimal integer becomes a number and anything else stays text
 * for the schema to refuse with a message naming the parameter.
 */
export function integerQueryParameters(request: FastifyRequest, ...names: string[]): void {
  const query = request.query as Record<string, unknown>;
  for (const name of names) {
    const value = query[name];
    if (typeof value === 'string' && /^-?[0-9]{1,16}$/.test(value)) query[name] = Number(value);
  }
}

/** The same for a boolean query parameter: `true` or `false` become booleans, anything else stays text. */
export function booleanQueryParameters(request: FastifyRequest, ...names: string[]): void {
  const query = request.query as Record<string, unknown>;
  for (const name of names) {
    const value = query[name];
    if (value === 'true' || value === 'false') query[name] = value === 'true';
  }
}
