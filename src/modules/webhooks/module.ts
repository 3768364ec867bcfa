import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { OutcomeHook } from '../messaging/index.js';
import type { SecretBox } from '../messaging/index.js';
import type { ShopsService } from '../shops/index.js';
import type { TrackingSubscriber } from '../tracking/index.js';
import { WebhookDelivery } from './webhooks.delivery.js';
import { WebhooksService } from './webhooks.service.js';

export interface WebhooksServices {
  /** Outbound webhook endpoints and the recording of message outcomes and tracking events for them (docs/webhooks.md). */
  readonly webhooks: WebhooksService;
  /** The `webhooks.deliver` job: sign, POST through the address guard, record, retry. */
  readonly webhookDelivery: WebhookDelivery;
}

export interface WebhooksModule {
  readonly services: WebhooksServices;
  readonly jobs: Pick<JobHandlers, 'webhooks.deliver'>;
  /** Tracking events, as the endpoints' topics ask for them. */
  readonly trackingSubscribers: readonly TrackingSubscriber[];
  /** What an admin change reloads (docs/settings-caches.md). */
  readonly settingsListeners: readonly (() => Promise<void>)[];
  /** Message outcomes reach the endpoints through it, in the transaction that records each outcome. */
  readonly outcomeHook: OutcomeHook;
}

/**
 * Outbound webhooks (docs/webhooks.md). Built before the messaging engine, whose outcomes
 * they hear through the outcome hook the engine owns (messaging/outcome-hook.ts).
 */
export function createWebhooksModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly config: Config;
  readonly shops: ShopsService;
  readonly jobs: JobQueue;
  /** Seals the endpoints' signing secrets at rest, as it seals the messaging channels' secrets. */
  readonly box: SecretBox;
  readonly settings: { refresh(): Promise<void> };
}): WebhooksModule {
  const webhooks = new WebhooksService(deps);
  const webhookDelivery = new WebhookDelivery({ ...deps, topics: webhooks.topics });
  return {
    services: { webhooks, webhookDelivery },
    jobs: {
      // One signed webhook delivery: its retries are new jobs (webhooks.delivery.ts); a throw (a database
      // fault) is retried by the runner, and the delivery's status makes a rerun harmless.
      'webhooks.deliver': { handler: (payload, ctx) => webhookDelivery.deliver(payload, { signal: ctx.signal }) },
    },
    trackingSubscribers: [webhooks.trackingSubscriber()],
    settingsListeners: [() => webhooks.topics.reload()],
    outcomeHook: webhooks.outcomeHook(),
  };
}
