import type { Clock } from '../../clock.js';
import type { AllowPrivate } from '../../net/address-guard.js';
import { safeRequest } from '../../net/safe-request.js';
import { retryAfterMs } from '../messaging/index.js';
import type { AttemptAnswer } from './domain/retry.js';
import { webhookHeaders } from './domain/signing.js';

/** One attempt, DNS to the answer's last byte: the specification suggests 15 to 30 s. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** The answer is read up to this size and otherwise ignored (only its status counts). */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface SignedRequest {
  readonly url: string;
  /** The secrets in force, the current one first: one signature each. */
  readonly secrets: readonly string[];
  /** The webhook-id. */
  readonly id: string;
  /** The JSON body, sent exactly as signed. */
  readonly body: string;
}

/**
 * One signed POST (Standard Webhooks headers, docs/webhooks.md) through safeRequest: the
 * private-address guard resolves, judges and pins the host at this very attempt, so a
 * name rebound to an inside address since the URL was saved is refused; no redirect is
 * followed; one deadline and a bounded answer.
 */
export async function postSigned(
  request: SignedRequest,
  options: { readonly clock: Clock; readonly allowPrivate: AllowPrivate; readonly timeoutMs?: number; readonly signal?: AbortSignal },
): Promise<AttemptAnswer> {
  const timestamp = Math.floor(options.clock.now() / 1000);
  const response = await safeRequest(request.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...webhookHeaders(request.secrets, request.id, timestamp, request.body) },
    body: request.body,
    timeoutMs: options.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
    maxBytes: MAX_ANSWER_BYTES,
    allowPrivate: options.allowPrivate,
    ...(options.signal && { signal: options.signal }),
  });
  if (!response.ok) return response;
  const retryAfter = retryAfterMs(response.headers, options.clock);
  return { ok: true, status: response.status, ...(retryAfter !== undefined && { retryAfterMs: retryAfter }) };
}
