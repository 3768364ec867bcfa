import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import { safeRequest } from '../../net/safe-request.js';
import { retryAfterMs } from '../messaging/providers/api-outcome.js';
import type { SecretBox } from '../messaging/secret-box.js';
import { judgeAttempt, type AttemptAnswer, type AttemptVerdict } from './domain/retry.js';
import { webhookHeaders } from './domain/signing.js';
import type { WebhookTopics } from './topics.js';
import * as repo from './webhooks.repo.js';

/** One attempt, DNS to the answer's last byte: the specification suggests 15 to 30 s. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** The answer is read up to this size and otherwise ignored (only its status counts). */
export const MAX_ANSWER_BYTES = 64 * 1024;

type Payload = JobMap['webhooks.deliver'];

/**
 * The `webhooks.deliver` job (docs/webhooks.md, "Retries"): one signed POST of one
 * delivery through the private-address guard (safe-request.ts: resolved, judged and
 * pinned at every attempt, so a name rebound to an inside address is refused), then its
 * verdict (domain/retry.ts) recorded with the next attempt's job in one commit. Delivery
 * is at least once: a worker killed after the POST and before the commit sends again, with
 * the same webhook-id, by which receivers drop repeats.
 */
export class WebhookDelivery {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly config: Pick<Config, 'fetchAllowPrivate'>;
      readonly jobs: JobQueue;
      readonly box: Pick<SecretBox, 'open'>;
      readonly topics: Pick<WebhookTopics, 'reload'>;
      /** The retries' jitter, a number in [0, 1); tests give a constant. */
      readonly random?: () => number;
      readonly timeoutMs?: number;
    },
  ) {}

  async deliver(job: Payload, options: { signal?: AbortSignal } = {}): Promise<void> {
    const db = this.deps.db.db;
    const delivery = await repo.findDelivery(db, job.shopId, job.endpointId, job.id);
    if (!delivery || delivery.status !== 'pending') return;
    const endpoint = await repo.findEndpoint(db, job.shopId, job.endpointId);
    if (!endpoint) return;
    if (endpoint.enabled !== 1) {
      return this.record(delivery, { kind: 'failed', error: 'The endpoint was disabled before the delivery was made.' }, null, false);
    }
    const now = this.deps.clock.now();
    const secrets = [await this.deps.box.open(endpoint.secret)];
    if (endpoint.previous_secret !== null && Number(endpoint.previous_secret_until) > now) {
      secrets.push(await this.deps.box.open(endpoint.previous_secret));
    }
    const headers = {
      'content-type': 'application/json',
      ...webhookHeaders(secrets, delivery.id, Math.floor(now / 1000), delivery.payload),
    };
    const response = await safeRequest(endpoint.url, {
      method: 'POST',
      headers,
      body: delivery.payload,
      timeoutMs: this.deps.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
      allowPrivate: this.deps.config.fetchAllowPrivate,
      ...(options.signal && { signal: options.signal }),
    });
    const answer: AttemptAnswer = response.ok
      ? { ok: true, status: response.status, ...optional(retryAfterMs(response.headers, this.deps.clock)) }
      : response;
    const verdict = judgeAttempt(answer, delivery.attempts + 1, (this.deps.random ?? Math.random)());
    await this.record(delivery, verdict, response.ok ? response.status : null, true);
  }

  /** The verdict of an attempt (or of none, when `attempted` is false), with the next try's job in the same commit. */
  private async record(delivery: repo.DeliveryRow, verdict: AttemptVerdict, status: number | null, attempted: boolean): Promise<void> {
    const now = this.deps.clock.now();
    const attempts = delivery.attempts + (attempted ? 1 : 0);
    const key = { shopId: delivery.shop_id, endpointId: delivery.endpoint_id, id: delivery.id, attempts: delivery.attempts };
    const common = {
      attempts,
      updated_at: now,
      ...(attempted && { last_attempt_at: now, last_status_code: status }),
      last_error: verdict.kind === 'succeeded' ? null : verdict.error,
    };
    let disabled = false;
    await this.deps.db.db.transaction().execute(async (trx) => {
      if (verdict.kind !== 'retry') {
        const updated = await repo.updatePendingDelivery(trx, key, {
          ...common,
          status: verdict.kind === 'succeeded' ? 'succeeded' : 'failed',
          next_attempt_at: null,
        });
        if (updated && verdict.kind === 'gone') {
          disabled = await repo.disableEndpoint(trx, delivery.shop_id, delivery.endpoint_id, verdict.error, now);
        }
        return;
      }
      const runAt = now + verdict.delayMs;
      if (!(await repo.updatePendingDelivery(trx, key, { ...common, next_attempt_at: runAt }))) return;
      await this.deps.jobs.enqueue(
        'webhooks.deliver',
        { shopId: delivery.shop_id, endpointId: delivery.endpoint_id, id: delivery.id },
        { executor: trx, runAt, idempotencyKey: `${delivery.shop_id}:${delivery.endpoint_id}:${delivery.id}:${attempts}` },
      );
    });
    await this.deps.db.durable();
    if (disabled) await this.deps.topics.reload();
  }
}

function optional(retryAfter: number | undefined): { retryAfterMs?: number } {
  return retryAfter === undefined ? {} : { retryAfterMs: retryAfter };
}
