/**
 * Gift certificates at the checkout (docs/checkout.md "Certificates"): they pay, like
 * money, for what promotions and bonuses left of the order, on any line, in the order
 * the request names them; a certificate pays at most its balance and keeps the rest.
 */
import { distribute, sum } from './money.js';
import type { CertificateFailureReason, CodeFailure } from './result.js';
import type { CertificateRequest } from './types.js';

/** `certificates_failed[].message`, one sentence each. */
export const CERTIFICATE_MESSAGES: Readonly<Record<CertificateFailureReason, string>> = {
  unknown: 'Certificate is not found',
  inactive: 'Certificate is not active',
  expired: 'Certificate has expired',
  empty: 'Certificate balance is empty',
  already_applied: 'Certificate is already applied',
  nothing_to_pay: 'Order has nothing left to pay with the certificate',
};

export interface CertificatePayment {
  readonly id: number;
  readonly code: string;
  readonly poolId: number | null;
  /** Minor units it pays in all. */
  readonly amount: number;
  /** Minor units it pays for each line. */
  readonly parts: readonly number[];
}

export interface CertificatePlan {
  readonly payments: readonly CertificatePayment[];
  readonly failed: readonly CodeFailure<CertificateFailureReason>[];
  /** Per line: minor units all certificates pay together. */
  readonly paid: readonly number[];
}

function failure(code: string, reason: CertificateFailureReason): CodeFailure<CertificateFailureReason> {
  return { code, reason, message: CERTIFICATE_MESSAGES[reason] };
}

/**
 * Each usable certificate pays min(balance, what is left of the order), spread over the
 * lines in proportion to what is left of each (largest remainder): the lines' shares of
 * the payment follow their shares of the bill. A certificate named twice (by the same
 * code or the same id) is used once.
 */
export function payWithCertificates(
  requests: readonly CertificateRequest[],
  leftOfLines: readonly number[],
  keys: readonly string[],
  now: number,
): CertificatePlan {
  const left = [...leftOfLines];
  const paid = left.map(() => 0);
  const payments: CertificatePayment[] = [];
  const failed: CodeFailure<CertificateFailureReason>[] = [];
  const seenCodes = new Set<string>();
  const seenIds = new Set<number>();
  for (const { code, state } of requests) {
    if (seenCodes.has(code) || (state.found && seenIds.has(state.id))) {
      failed.push(failure(code, 'already_applied'));
      continue;
    }
    seenCodes.add(code);
    if (!state.found) {
      failed.push(failure(code, 'unknown'));
      continue;
    }
    seenIds.add(state.id);
    const reason: CertificateFailureReason | null = !state.active
      ? 'inactive'
      : state.expiresAt !== null && now >= state.expiresAt
        ? 'expired'
        : state.balance <= 0
          ? 'empty'
          : sum(left) === 0
            ? 'nothing_to_pay'
            : null;
    if (reason !== null) {
      failed.push(failure(code, reason));
      continue;
    }
    const amount = Math.min(state.balance, sum(left));
    const parts = distribute(amount, left, keys);
    parts.forEach((p, i) => {
      left[i] = (left[i] ?? 0) - p;
      paid[i] = (paid[i] ?? 0) + p;
    });
    payments.push({ id: state.id, code, poolId: state.poolId, amount, parts });
  }
  return { payments, failed, paid };
}
