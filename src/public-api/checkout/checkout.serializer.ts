import fastJson from 'fast-json-stringify';
import { Type } from '@sinclair/typebox';
import { ResultSchema } from '../../modules/checkout/domain/result-body.js';

/**
 * The serialiser of estimate, apply and confirm. Their result is the largest answer of the
 * public API (about 10 kB for a 10-line cart, some 400 numbers), and JSON.stringify was a
 * large share of an estimate's time; a serialiser compiled from ResultSchema writes the
 * same bytes in less than half of it (docs/checkout.md, "Performance"). The
 * schema is exact and resultBody builds its type, so no field is dropped. The
 * duplicate-product answer and the errors are small and go through JSON.stringify.
 */
const writeResult: (data: unknown) => string = fastJson(Type.Object({ status: Type.Literal('success'), payload: ResultSchema }));

function isResult(data: unknown): boolean {
  const payload = (data as { payload?: { items?: unknown } } | null)?.payload;
  return payload !== undefined && payload !== null && Array.isArray(payload.items);
}

/** A route's serializerCompiler: the compiled writer for a 200 that carries a result. */
export function checkoutAnswerSerializer({ httpStatus }: { httpStatus?: string }): (data: unknown) => string {
  if (httpStatus !== '200') return (data) => JSON.stringify(data);
  return (data) => (isResult(data) ? writeResult(data) : JSON.stringify(data));
}
