import { ApiError } from '../api/client';
import type { Translate } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';

/**
 * formFailure, for forms whose fields hold objects or lists: the server's 422 names
 * `discount.value` or `levels[2].min_total`, shown at the form's `discount` or `levels`.
 */
export function failureAt<F extends string>(error: unknown, fields: readonly F[], t: Translate) {
  if (error instanceof ApiError && error.field !== undefined) {
    const head = /^[^.[]+/.exec(error.field)?.[0];
    if (head !== undefined && head !== error.field) {
      return formFailure(new ApiError(error.status, error.code, error.message, head), fields, t);
    }
  }
  return formFailure(error, fields, t);
}
