import { performance } from 'node:perf_hooks';
import { redactCredentials } from '../../observability/redact-credentials.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { SecretBox } from '../messaging/index.js';
import { judgeAttempt, type AttemptVerdict } from './domain/retry.js';
import type { WebhookTopics } from './topics.js';
import { postSigned } from './webhook-request.js';
import * as repo from './webhooks.repo.js';

type Payload = JobMap['webhooks.deliver'];

/** Finished deliveries are kept this long for the admin's list, then pruned as new ones finish. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Old rows one finished delivery prunes at most: more than one, so pruning keeps ahead of the inflow. */
const PRUNE_BATCH = 20;

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
    const secrets = await this.secretsOf(endpoint);
    if (!secrets) {
      const error = "The endpoint's secret cannot be opened with the server's secret key; rotate the secret.";
      return this.record(delivery, { kind: 'failed', error }, null, false);
    }
    const startedAt = performance.now();
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
    const durationMs = Math.round(performance.now() - startedAt);
    await this.record(delivery, verdict, answer.ok ? answer.status : null, true, durationMs);
  }

  /** The secrets in force, the current one first; undefined when PATRON_SECRET_KEY changed since they were sealed. */
  private async secretsOf(endpoint: repo.EndpointRow): Promise<string[] | undefined> {
    try {
      const secrets = [await this.deps.box.open(endpoint.secret)];
      if (endpoint.previous_secret !== null && Number(endpoint.previous_secret_until) > this.deps.clock.now()) {
        secrets.push(await this.deps.box.open(endpoint.previous_secret));
      }
      return secrets;
    } catch {
      return undefined;
    }
  }

  /** The verdict of an attempt (or of none, when `attempted` is false), with the next try's job in the same commit. */
  private async record(
    delivery: repo.DeliveryRow,
    verdict: AttemptVerdict,
    status: number | null,
    attempted: boolean,
    durationMs: number | null = null,
  ): Promise<void> {
    const now = this.deps.clock.now();
    const attempts = delivery.attempts + (attempted ? 1 : 0);
    const key = { shopId: delivery.shop_id, endpointId: delivery.endpoint_id, id: delivery.id, attempts: delivery.attempts };
    const common = {
      attempts,
      updated_at: now,
      ...(attempted && { last_attempt_at: now, last_status_code: status, last_duration_ms: durationMs }),
      // An endpoint's URL may carry user info, and a failure may quote it.
      last_error: verdict.kind === 'succeeded' ? null : redactCredentials(verdict.error),
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
        if (updated) await repo.deleteFinishedBefore(trx, delivery.shop_id, delivery.endpoint_id, now - DELIVERY_RETENTION_MS, PRUNE_BATCH);
        return;
      }
      const runAt = now + verdict.delayMs;
      if (!(await repo.updatePendingDelivery(trx, key, { ...common, next_attempt_at: runAt }))) return;
      // No idempotency key: the conditional update above lets one run per attempt get here.
      await this.deps.jobs.enqueue(
        'webhooks.deliver',
        { shopId: delivery.shop_id, endpointId: delivery.endpoint_id, id: delivery.id },
        { executor: trx, runAt },
      );
    });
    await this.deps.db.durable();
    if (disabled) await this.deps.topics.reload();
  }
}
