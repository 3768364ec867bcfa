import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { inputFromForm, inputFromJsonBody, inputFromJsonValue, type PublicInput } from '../http/input.js';
import { parseBracketPairs, parseBracketQuery, type ParamLimits, type ParamValue } from '../http/params.js';
import { decodeBody, invalidBytesError } from '../http/text-rule.js';

/**
 * Body formats of the public scope (contract-notes, "Wire format"): JSON, urlencoded
 * forms and multipart forms (POST /transact), each turned into a PublicInput by the
 * same rules. Any other content type is 415 (Fastify's own answer when no parser
 * matches). `text/plain` is read as JSON: browser SDKs send JSON as text/plain (what
 * `navigator.sendBeacon` and preflight-free `fetch` send).
 */

const JSON_TYPES = ['application/json', 'text/plain'];
const FORM_TYPE = 'application/x-www-form-urlencoded';

export async function registerBodyParsers(scope: FastifyInstance, limits: ParamLimits): Promise<void> {
  scope.removeAllContentTypeParsers();

  // parseAs enforces config.bodyLimit (413) and Content-Length (400). Bytes, so that
  // text that is not UTF-8 is refused naming its field (http/text-rule.ts) rather than altered.
  scope.addContentTypeParser(JSON_TYPES, { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, bodyInput(body as Buffer, parseJsonBody));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  scope.addContentTypeParser(FORM_TYPE, { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(
        null,
        bodyInput(body as Buffer, (text) => parseFormBody(text, limits)),
      );
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  // Fields only, read in order by readMultipartInput; a file part is refused at once
  // (`files: 0`) without reading it, so an upload cannot tie up the server.
  await scope.register(multipart, {
    limits: {
      files: 0,
      fields: limits.maxParams,
      parts: limits.maxParams,
      fieldNameSize: 1000,
      fieldSize: scope.initialConfig.bodyLimit,
    },
  });
}

/** A body's bytes parsed as input; bytes that are not UTF-8 are refused naming their field (http/text-rule.ts). */
function bodyInput(bytes: Buffer, parse: (text: string) => PublicInput): PublicInput {
  const { text, notUtf8 } = decodeBody(bytes);
  const input = parse(text);
  if (notUtf8) throw invalidBytesError(input, 'public');
  return input;
}

function parseFormBody(text: string, limits: ParamLimits): PublicInput {
  return inputFromForm(parseBracketQuery(text, limits));
}

/** An empty body is no parameters; anything else must be a JSON object. */
export function parseJsonBody(text: string): PublicInput {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'The request body is not valid JSON.');
  }
  return inputFromJsonBody(value);
}

/**
 * The fields of a multipart body in the order sent, through the bracket parser (so
 * `items[][id]` means the same as in a query string). The total size of the fields is
 * bounded by config.bodyLimit, as for the other body types.
 */
export async function readMultipartInput(request: FastifyRequest, limits: ParamLimits): Promise<PublicInput> {
  const bodyLimit = request.server.initialConfig.bodyLimit ?? Infinity;
  if (Number(request.headers['content-length'] ?? 0) > bodyLimit) throw tooLarge();
  const pairs: Array<[string, ParamValue]> = [];
  let bytes = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') throw filesRefused();
      if (part.fieldnameTruncated) {
        throw new AppError('VALIDATION_FAILED', 'A form field name is longer than 1000 bytes.');
      }
      if (part.valueTruncated) throw tooLarge();
      const value = typeof part.value === 'string' ? part.value : inputFromJsonValue(part.fieldname, part.value);
      bytes += part.fieldname.length + (typeof value === 'string' ? value.length : JSON.stringify(value).length);
      if (bytes > bodyLimit) throw tooLarge();
      pairs.push([part.fieldname, value as ParamValue]);
    }
  } catch (error) {
    throw multipartError(error);
  }
  return inputFromForm(parseBracketPairs(pairs, limits));
}

/**
 * The body of a GET (contract-notes, "Wire format": a GET may carry a JSON body repeating
 * its query parameters, as the mobile SDK's GET /segments/get does; it is read as a POST
 * body is read). Fastify never reads the body of a GET, so the scope reads it here with
 * the same limits and parsers: JSON (or text/plain) and urlencoded forms. Any other type
 * of GET body is ignored, as GET bodies always were; an empty one is no parameters.
 */
export async function readBodyOfGet(request: FastifyRequest, limits: ParamLimits): Promise<PublicInput> {
  const { headers } = request;
  if (headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0')) {
    return {};
  }
  const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const json = JSON_TYPES.includes(type);
  if (!json && type !== FORM_TYPE) return {};
  const bytes = await readBytes(request, request.server.initialConfig.bodyLimit ?? Infinity);
  return bodyInput(bytes, json ? parseJsonBody : (text) => parseFormBody(text, limits));
}

/** The raw body, refused with 413 once it exceeds `limit` bytes. */
async function readBytes(request: FastifyRequest, limit: number): Promise<Buffer> {
  if (Number(request.headers['content-length'] ?? 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request.raw) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    bytes += buffer.length;
    if (bytes > limit) throw tooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
}

function filesRefused(): AppError {
  return new AppError('VALIDATION_FAILED', 'The form must not contain files.', { field: 'body' });
}

/** Busboy's and @fastify/multipart's errors as AppErrors with sentences of ours. */
function multipartError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return filesRefused();
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', 'The form has too many fields.');
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_PROTO_VIOLATION':
      return new AppError('VALIDATION_FAILED', 'A form field has a reserved name.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new AppError('BAD_REQUEST', 'A form field declared as JSON is not valid JSON.');
    default:
      // Busboy reports a malformed body with plain Errors ("Unexpected end of form" …).
      return new AppError('BAD_REQUEST', 'The multipart body is malformed.');
  }
}
