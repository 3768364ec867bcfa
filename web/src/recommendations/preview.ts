import { ApiError } from '../api/client';
import type { Translate } from '../i18n/i18n';
import { describeFailure } from '../ui/states';

/** What the preview was asked for, as typed: an offer id and any identifier of a customer (both may be empty). */
export interface PreviewRequest {
  readonly item: string;
  readonly customer: string;
}

/** The preview's two inputs: a failure is shown under the one it concerns. */
export type PreviewField = 'item' | 'customer';

/** A customer as the customers lookup answers one (GET …/customers?identifier=). */
export interface FoundCustomer {
  readonly id: number;
  readonly email: string | null;
  readonly phone: string | null;
  readonly external_id: string | null;
  readonly loyalty_id: string | null;
  readonly telegram_id: string | null;
}

/** The customer the preview is asked for: the profile id sent and how to name it. */
export interface PreviewCustomer {
  readonly profileId: number;
  readonly label: string;
}

/** Profile ids are positive integers of up to 16 digits (they are sent as a JSON number, so at most 2^53 - 1). */
const PROFILE_ID = /^[1-9]\d{0,15}$/;

/**
 * The customer behind what was typed: the first profile holding it as an identifier (email,
 * phone, external id… exact match), else the typed number as a profile id (which the preview
 * answers 404 for when no such customer exists), else none.
 */
export function customerOf(typed: string, found: readonly FoundCustomer[]): PreviewCustomer | undefined {
  const first = found[0];
  if (first !== undefined) {
    const label = first.email ?? first.phone ?? first.external_id ?? first.loyalty_id ?? first.telegram_id ?? typed;
    return { profileId: first.id, label };
  }
  return PROFILE_ID.test(typed) && Number.isSafeInteger(Number(typed)) ? { profileId: Number(typed), label: typed } : undefined;
}

/**
 * Where a failed preview is shown, in words: the server's 422 under the input it names
 * (`item`, or `profile_id` and the lookup's `identifier` under the customer), a missing
 * customer (404 with a customer asked for, while the block itself was found) under the
 * customer, anything else above the panel.
 */
export function previewFailure(
  error: unknown,
  request: PreviewRequest,
  t: Translate,
): { readonly field: PreviewField; readonly message: string } | { readonly form: string } {
  if (error instanceof ApiError && error.status === 422) {
    if (error.field === 'item') return { field: 'item', message: error.message };
    if (error.field === 'profile_id' || error.field === 'identifier') return { field: 'customer', message: error.message };
  }
  // The block's own 404 names the block; any other 404 of a request with a customer is the customer's.
  if (error instanceof ApiError && error.status === 404 && request.customer !== '' && !/^Recommendation block\b/.test(error.message)) {
    return { field: 'customer', message: t('recommendations.preview.customerUnknown', { customer: request.customer }) };
  }
  return { form: describeFailure(error, t) };
}

/** The request as sent: what was typed, trimmed. */
export function requestOf(item: string, customer: string): PreviewRequest {
  return { item: item.trim(), customer: customer.trim() };
}

/** Whether a "Show" asks again for what is shown (then it is fetched anew rather than taken from the cache). */
export function sameRequest(a: PreviewRequest | null, b: PreviewRequest): boolean {
  return a !== null && a.item === b.item && a.customer === b.customer;
}
