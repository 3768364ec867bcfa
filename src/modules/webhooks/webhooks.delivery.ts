import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { SecretBox } from '../messaging/secret-box.js';
import { judgeAttempt, type AttemptVerdict } from './domain/retry.js';
import type { WebhookTopics } from './topics.js';
import { postSigned } from './webhook-request.js';
import * as repo from './webhooks.repo.js';

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
    const answer = await postSigned(
      { url: endpoint.url, secrets, id: delivery.id, body: delivery.payload },
      {
        clock: this.deps.clock,
        allowPrivate: this.deps.config.fetchAllowPrivate,
        ...(this.deps.timeoutMs !== undefined && { timeoutMs: this.deps.timeoutMs }),
        ...(options.signal && { signal: options.signal }),
      },
    );
    const verdict = judgeAttempt(answer, delivery.attempts + 1, (this.deps.random ?? Math.random)());
    await this.record(delivery, verdict, answer.ok ? answer.status : null, true);
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
