/**
 * The one error type of Patron. Services throw AppError for requests that cannot be
 * served (unknown shop, bad credentials); expected business outcomes are returned as
 * discriminated unions instead. Each HTTP scope maps `code` to a status and its own
 * envelope in exactly one error handler, so modules never know about HTTP.
 */

export const ERROR_CATALOGUE = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Machine-readable detail for the admin scope (e.g. the offending field). */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
