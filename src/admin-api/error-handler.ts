import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOGUE, isAppError, type ErrorCode } from '../errors.js';
import { DATABASE_UNAVAILABLE_MESSAGE, isUnavailableError } from '../http/http-errors.js';
import type { ErrorResponse } from './common.schemas.js';
import { describeValidationError } from './validation-message.js';

/**
 * The one error handler of /admin/v1 (admin-api.md: `{"error":{"code","message"}}`, never
 * a stack trace). AppError codes map through the catalogue; Fastify's own errors
 * (schema validation, body parsing) get a code and a sentence of ours, because their
 * messages name internals; anything else is a fault: logged in full, answered generically.
 */
export function adminErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body } = toAdminError(error, request);
  if (status >= 500) request.log.error({ err: error }, 'admin request failed');
  if (status === 401) reply.header('www-authenticate', 'Bearer realm="patron-admin"');
  const retryAfter = isAppError(error) ? error.details?.retryAfterSeconds : isUnavailableError(error) ? 1 : undefined;
  if (typeof retryAfter === 'number') reply.header('retry-after', String(Math.ceil(retryAfter)));
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

function toAdminError(error: unknown, request: FastifyRequest): { status: number; body: ErrorResponse } {
  if (isAppError(error)) {
    const message = error.status >= 500 && error.code === 'INTERNAL' ? INTERNAL_MESSAGE : error.message;
    return envelope(error.code, message);
  }
  if (isFastifyError(error)) {
    if (error.validation) {
      const { message } = describeValidationError(error.validation, error.validationContext);
      return envelope('VALIDATION_FAILED', message);
    }
    const known = FASTIFY_ERRORS[error.code];
    if (known) return envelope(known.code, known.message(request));
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const code = codeForStatus(status);
      return { status, body: { error: { code, message: GENERIC_MESSAGES[code] ?? 'The request cannot be served.' } } };
    }
  }
  if (isUnavailableError(error)) return envelope('UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE);
  return envelope('INTERNAL', INTERNAL_MESSAGE);
}

const INTERNAL_MESSAGE = 'An internal error occurred; the details are in the server log.';

function envelope(code: ErrorCode, message: string): { status: number; body: ErrorResponse } {
  return { status: ERROR_CATALOGUE[code], body: { error: { code, message } } };
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as Partial<FastifyError>).code === 'string';
}

function codeForStatus(status: number): ErrorCode {
  const entry = Object.entries(ERROR_CATALOGUE).find(([, s]) => s === status);
  return entry ? (entry[0] as ErrorCode) : 'BAD_REQUEST';
}

const GENERIC_MESSAGES: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST: 'The request is malformed.',
  NOT_FOUND: 'The resource does not exist.',
  METHOD_NOT_ALLOWED: 'The method is not allowed on this resource.',
  PAYLOAD_TOO_LARGE: 'Request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'The content type of the request body is not supported.',
};

const FASTIFY_ERRORS: Readonly<Record<string, { code: ErrorCode; message: (request: FastifyRequest) => string }>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'BAD_REQUEST', message: () => 'Request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'BAD_REQUEST', message: () => 'Request body is empty but declared as JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'BAD_REQUEST',
    message: () => 'Request body size does not match its Content-Length.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    message: (request) => `Request body is larger than the limit of ${request.routeOptions.bodyLimit} bytes.`,
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: (request) => {
      const type = request.headers['content-type']?.split(';')[0]?.trim();
      return type ? `Content type \`${type}\` is not supported by this route.` : 'Request body has no Content-Type header.';
    },
  },
};
