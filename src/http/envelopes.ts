import { Type, type TObject, type TProperties } from '@sinclair/typebox';

/**
 * The response envelopes of the public contract (interface.md, "Errors / Envelopes").
 * Each public route declares its family in its route config:
 *  - `status`:  `{"status":"success", …}` / `{"status":"error","payload":{"message":"…"}}`
 *  - `success`: `{"success":true, …}`    / `{"success":false,"payload":{"message":"…"}}`
 *  - `bare`:    the data itself on success (products/get, categories, /init …), and the
 *               status envelope for errors.
 * A success body never has a top-level `message` key: clients treat one as a failure
 * (contract-notes, "Identifiers").
 */

export const ENVELOPE_FAMILIES = ['status', 'success', 'bare'] as const;
export type EnvelopeFamily = (typeof ENVELOPE_FAMILIES)[number];

export interface StatusErrorBody {
  readonly status: 'error';
  readonly payload: { readonly message: string };
}

export interface SuccessErrorBody {
  readonly success: false;
  readonly payload: { readonly message: string };
}

/** Fields of a success body: anything but the envelope's own keys and `message`. */
type SuccessFields = object & { message?: never; status?: never; success?: never };

export function errorBody(family: EnvelopeFamily, message: string): StatusErrorBody | SuccessErrorBody {
  return family === 'success' ? { success: false, payload: { message } } : { status: 'error', payload: { message } };
}

/** `{"status":"success", ...fields}`, e.g. `statusSuccess({ payload: { orders } })`. */
export function statusSuccess<T extends SuccessFields>(fields?: T): { status: 'success' } & T {
  assertNoMessage(fields);
  return { status: 'success', ...(fields as T) };
}

/** `{"success":true, ...fields}`, e.g. `successTrue({ payload: { code } })`. */
export function successTrue<T extends SuccessFields>(fields?: T): { success: true } & T {
  assertNoMessage(fields);
  return { success: true, ...(fields as T) };
}

function assertNoMessage(fields: object | undefined): void {
  if (fields !== undefined && Object.hasOwn(fields, 'message')) {
    throw new Error('A success body must not have a top-level `message` key.');
  }
}

/**
 * Why a 2xx body does not fit the route's family, or undefined when it does. Used as a
 * last check before serialisation, so that a route answering in the wrong envelope
 * fails its tests instead of misleading an SDK.
 */
export function successBodyProblem(family: EnvelopeFamily, body: unknown): string | undefined {
  const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : undefined;
  if (object && Object.hasOwn(object, 'message')) return 'a success body has a top-level `message` key';
  if (family === 'status' && (object as { status?: unknown } | undefined)?.status !== 'success') {
    return 'a route of the status family answered without `"status":"success"`';
  }
  if (family === 'success' && (object as { success?: unknown } | undefined)?.success !== true) {
    return 'a route of the success family answered without `"success":true`';
  }
  return undefined;
}

// --- TypeBox schemas for the OpenAPI document -------------------------------------

const ErrorPayloadSchema = Type.Object({ message: Type.String() });

export const StatusErrorSchema = Type.Object(
  { status: Type.Literal('error'), payload: ErrorPayloadSchema },
  { description: 'Failure in the status envelope' },
);

export const SuccessErrorSchema = Type.Object(
  { success: Type.Literal(false), payload: ErrorPayloadSchema },
  { description: 'Failure in the success envelope' },
);

/** `{"status":"success", ...properties}` */
export function StatusSuccessSchema<T extends TProperties>(properties: T) {
  return Type.Object({ status: Type.Literal('success'), ...properties });
}

/** `{"success":true, ...properties}` */
export function SuccessTrueSchema<T extends TProperties>(properties: T) {
  return Type.Object({ success: Type.Literal(true), ...properties });
}

/** The error schema of a family, for `response: { '4xx': …, '5xx': … }`. */
export function errorSchemaOf(family: EnvelopeFamily): TObject {
  return family === 'success' ? SuccessErrorSchema : StatusErrorSchema;
}
