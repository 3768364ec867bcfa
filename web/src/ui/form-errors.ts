import { ApiError } from '../api/client';
import type { Translate } from '../i18n/i18n';
import { describeFailure } from './states';

/**
 * Splits a failed save into the message shown at a field (the server's 422 names it) and
 * the one shown above the form, for every other failure.
 */
export function formFailure<F extends string>(
  error: unknown,
  fields: readonly F[],
  t: Translate,
): { readonly field?: { readonly name: F; readonly message: string }; readonly form?: string } {
  if (error instanceof ApiError && error.status === 422 && error.field !== undefined) {
    const name = fields.find((f) => f === error.field);
    if (name !== undefined) return { field: { name, message: error.message } };
  }
  if (error === null || error === undefined) return {};
  return { form: describeFailure(error, t) };
}
