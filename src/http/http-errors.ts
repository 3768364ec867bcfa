import { isDatabaseUnavailable } from '../db/unavailable.js';
import { AppError, ERROR_CATALOGUE, type ErrorCode } from '../errors.js';

/**
 * Maps anything thrown while serving a request to a status, a catalogue code and one
 * sentence that is safe to show: AppError as thrown, Fastify's own errors (schema
 * validation, body too large, unsupported media type, bad Content-Length …) with our
 * own sentences, and everything else to a generic 500 that leaks nothing. Each scope's
 * error handler wraps the result in its own envelope.
 */

export interface HttpErrorView {
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
  /** A real fault: log it with the error. */
  readonly internal: boolean;
  /** Seconds after which a retry may succeed (a Retry-After header), when known. */
  readonly retryAfterSeconds?: number;
}

/** Whether the error means the database cannot be reached right now (db/unavailable.ts), for each scope's handler. */
export const isUnavailableError = isDatabaseUnavailable;

/** The answer while the database cannot be reached (db/unavailable.ts): the client may try again. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The service is unavailable for a moment: try again shortly.';

/** Sentences for Fastify/plugin errors, by status; their own texts name internals. */
const GENERIC_MESSAGES: Readonly<Record<number, string>> = {
  400: 'The request could not be read.',
  401: 'The request is not authorised.',
  403: 'The request is forbidden.',
  404: 'The requested resource does not exist.',
  405: 'The method is not allowed for this endpoint.',
  408: 'The request took too long to arrive.',
  409: 'The request conflicts with the current state.',
  413: 'The request body is too large.',
  415: 'The content type of the request body is not supported.',
  422: 'The request parameters are not valid.',
  429: 'Too many requests.',
  500: 'Internal server error.',
  503: 'The service is unavailable.',
};

export const INTERNAL_ERROR_MESSAGE = 'Internal server error.';

interface ValidationIssue {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export function describeError(error: unknown): HttpErrorView {
  if (error instanceof AppError) {
    return { status: error.status, code: error.code, message: error.message, internal: error.status >= 500 };
  }
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    statusCode?: unknown;
    validation?: unknown;
  };
  if (Array.isArray(fields.validation) && fields.validation.length > 0) {
    return {
      status: 422,
      code: 'VALIDATION_FAILED',
      message: validationMessage(fields.validation[0] as ValidationIssue),
      internal: false,
    };
  }
  const status = typeof fields.statusCode === 'number' ? fields.statusCode : 500;
  if (status >= 400 && status < 500) {
    // 406 is what @fastify/multipart uses for "not multipart" and bad JSON fields.
    const effective = status === 406 ? 400 : status;
    return {
      status: effective,
      code: codeForStatus(effective),
      message: GENERIC_MESSAGES[effective] ?? GENERIC_MESSAGES[400]!,
      internal: false,
    };
  }
  if (isDatabaseUnavailable(error)) {
    return { status: 503, code: 'UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE, internal: true, retryAfterSeconds: 1 };
  }
  return { status: 500, code: 'INTERNAL', message: INTERNAL_ERROR_MESSAGE, internal: true };
}

function codeForStatus(status: number): ErrorCode {
  const entry = Object.entries(ERROR_CATALOGUE).find(([, value]) => value === status);
  return (entry?.[0] as ErrorCode | undefined) ?? 'BAD_REQUEST';
}

/** `/items/0/id` → `items[0][id]`, the bracket spelling clients use. */
export function bracketName(instancePath: string, extra?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) segments.push(extra);
  const [first, ...rest] = segments;
  return first === undefined ? '' : first + rest.map((segment) => `[${segment}]`).join('');
}

const ARTICLE_TYPES: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
};

/** One sentence naming the parameter, from the first schema (ajv) error. */
export function validationMessage(issue: ValidationIssue): string {
  const { keyword, params } = issue;
  const limit = typeof params.limit === 'number' ? params.limit : undefined;
  let name = bracketName(issue.instancePath);
  let requirement: string;
  switch (keyword) {
    case 'required':
      name = bracketName(issue.instancePath, String(params.missingProperty));
      requirement = 'is required';
      break;
    case 'additionalProperties':
      name = bracketName(issue.instancePath, String(params.additionalProperty));
      requirement = 'is not allowed';
      break;
    case 'type': {
      const types = String(params.type).split(',');
      requirement = `must be ${types.map((t) => ARTICLE_TYPES[t] ?? t).join(' or ')}`;
      break;
    }
    case 'minLength':
      requirement = limit === 1 ? 'must be a non-empty string' : `must be at least ${limit} characters`;
      break;
    case 'maxLength':
      requirement = `must be at most ${limit} characters`;
      break;
    case 'minimum':
      requirement = `must be at least ${limit}`;
      break;
    case 'maximum':
      requirement = `must be at most ${limit}`;
      break;
    case 'exclusiveMinimum':
      requirement = `must be greater than ${limit}`;
      break;
    case 'exclusiveMaximum':
      requirement = `must be less than ${limit}`;
      break;
    case 'minItems':
      requirement = limit === 1 ? 'must not be empty' : `must have at least ${limit} elements`;
      break;
    case 'maxItems':
      requirement = `must have at most ${limit} elements`;
      break;
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      requirement = `must be one of ${allowed.map((v) => `\`${String(v)}\``).join(', ')}`;
      break;
    }
    case 'const':
      requirement = `must be \`${String(params.allowedValue)}\``;
      break;
    case 'pattern':
    case 'format':
      requirement = 'has an invalid format';
      break;
    default:
      requirement = 'is not valid';
  }
  return name === '' ? GENERIC_MESSAGES[422]! : `Parameter \`${name}\` ${requirement}.`;
}
