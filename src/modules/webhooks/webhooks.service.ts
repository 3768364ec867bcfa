import crypto from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { resolveGuardedHost } from '../../net/address-guard.js';
import type { HookedOutcome, OutcomeHook } from '../messaging/index.js';
import type { SentDelivery } from '../messaging/index.js';
import type { SecretBox } from '../messaging/index.js';
import type { ShopsService } from '../shops/index.js';
import type { StoredEvent, TrackingSubscriber } from '../tracking/index.js';
import {
  EVENT_TYPES,
  messageOutcomeEvent,
  outcomeEventType,
  trackingEvent,
  trackingEventType,
  type WebhookEvent,
} from './domain/events.js';
import { formatSecret, SECRET_BYTES } from './domain/signing.js';
import { WebhookTopics } from './topics.js';
import * as repo from './webhooks.repo.js';

/** Endpoints one shop may have. */
export const MAX_ENDPOINTS = 20;
/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;
export const MAX_URL_LENGTH = 2000;
const GUARD_TIMEOUT_MS = 5_000;
export const TRACKING_SUBSCRIBER = 'webhooks';

export interface EndpointInput {
  readonly url: string;
  readonly eventTypes: readonly string[];
  readonly description?: string;
}

export interface EndpointPatch {
  readonly url?: string;
  readonly eventTypes?: readonly string[];
  readonly description?: string;
  readonly enabled?: boolean;
}

export interface Endpoint {
  readonly id: string;
  readonly url: string;
  readonly description: string;
  readonly eventTypes: readonly string[];
  readonly enabled: boolean;
  readonly disabledReason: string | null;
  /** While a rotation's grace period runs: when the previous secret stops signing. */
  readonly previousSecretUntil: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface WebhookDeliveryView {
  readonly id: string;
  readonly eventType: string;
  readonly status: repo.DeliveryRow['status'];
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly lastAttemptAt: number | null;
  readonly lastStatusCode: number | null;
  /** How long the last attempt took; null before one, and for attempts made before migration 0041. */
  readonly lastDurationMs: number | null;
  readonly lastError: string | null;
  readonly createdAt: number;
}

/**
 * A shop's outbound webhook endpoints (docs/webhooks.md) and the recording of events for
 * them: message outcomes through the messaging outcome hook and stored tracking events
 * through the tracking subscriber, each written as one delivery row per subscribed
 * endpoint with its `webhooks.deliver` job, in the transaction of the event's source.
 * URLs pass the private-address guard when saved; the sender checks them again at each
 * attempt (webhooks.delivery.ts), so a name that later resolves inside is still refused.
 */
export class WebhooksService {
  readonly topics: WebhookTopics;

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly config: Pick<Config, 'fetchAllowPrivate'>;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly jobs: JobQueue;
      readonly box: Pick<SecretBox, 'seal'>;
      /** Read before outcomes are recorded, so that the topics answer as of the admin's last change. */
      readonly settings?: { refresh(): Promise<void> };
    },
  ) {
    this.topics = new WebhookTopics({ db: deps.db, clock: deps.clock });
  }

  /** A new endpoint and its secret, which is answered here only. */
  async createEndpoint(shopId: string, input: EndpointInput): Promise<{ endpoint: Endpoint; secret: string }> {
    await this.deps.shops.requireShop(shopId);
    const url = await this.checkUrl(input.url);
    const eventTypes = checkEventTypes(input.eventTypes);
    const secret = formatSecret(crypto.randomBytes(SECRET_BYTES));
    const sealed = await this.deps.box.seal(secret);
    const now = this.deps.clock.now();
    const id = `ep_${crypto.randomBytes(16).toString('base64url')}`;
    await this.deps.db.db.transaction().execute(async (trx) => {
      if (!(await repo.takeEndpointPlace(trx, shopId, MAX_ENDPOINTS))) {
        throw new AppError('CONFLICT', `A shop may have at most ${MAX_ENDPOINTS} webhook endpoints.`);
      }
      await repo.insertEndpoint(trx, {
        shop_id: shopId,
        id,
        url,
        description: input.description ?? '',
        event_types: JSON.stringify(eventTypes),
        enabled: 1,
        disabled_reason: null,
        secret: sealed,
        previous_secret: null,
        previous_secret_until: null,
        created_at: now,
        updated_at: now,
      });
    });
    await this.changed();
    return { endpoint: await this.getEndpoint(shopId, id), secret };
  }

  async listEndpoints(shopId: string): Promise<Endpoint[]> {
    await this.deps.shops.requireShop(shopId);
    return (await repo.listEndpoints(this.deps.db.db, shopId)).map((row) => toEndpoint(row, this.deps.clock.now()));
  }

  async getEndpoint(shopId: string, id: string): Promise<Endpoint> {
    return toEndpoint(await this.requireEndpoint(shopId, id), this.deps.clock.now());
  }

  /** Changes what is given; enabling clears the reason it was disabled. */
  async updateEndpoint(shopId: string, id: string, patch: EndpointPatch): Promise<Endpoint> {
    await this.requireEndpoint(shopId, id);
    const url = patch.url === undefined ? undefined : await this.checkUrl(patch.url);
    const eventTypes = patch.eventTypes === undefined ? undefined : checkEventTypes(patch.eventTypes);
    await repo.updateEndpoint(this.deps.db.db, shopId, id, {
      ...(url !== undefined && { url }),
      ...(eventTypes !== undefined && { event_types: JSON.stringify(eventTypes) }),
      ...(patch.description !== undefined && { description: patch.description }),
      ...(patch.enabled !== undefined && {
        enabled: patch.enabled ? 1 : 0,
        disabled_reason: patch.enabled ? null : 'Disabled by the shop.',
      }),
      updated_at: this.deps.clock.now(),
    });
    await this.changed();
    return this.getEndpoint(shopId, id);
  }

  /** Deletes the endpoint with its deliveries; their pending jobs find nothing and end. */
  async deleteEndpoint(shopId: string, id: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    await this.deps.db.db.transaction().execute(async (trx) => {
      if (!(await repo.deleteEndpoint(trx, shopId, id))) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
      await repo.releaseEndpointPlace(trx, shopId);
    });
    await this.changed();
  }

  /**
   * A new secret, answered here only. The one it replaces keeps signing beside it for
   * ROTATION_GRACE_MS (two signatures in `webhook-signature`), so the receiver can switch
   * without refusing a delivery; a second rotation within that time drops the oldest.
   */
  async rotateSecret(shopId: string, id: string): Promise<{ secret: string; previousSecretUntil: number }> {
    const row = await this.requireEndpoint(shopId, id);
    const secret = formatSecret(crypto.randomBytes(SECRET_BYTES));
    const now = this.deps.clock.now();
    const previousSecretUntil = now + ROTATION_GRACE_MS;
    const rotated = await repo.updateEndpoint(
      this.deps.db.db,
      shopId,
      id,
      {
        secret: await this.deps.box.seal(secret),
        previous_secret: row.secret,
        previous_secret_until: previousSecretUntil,
        updated_at: now,
      },
      row.secret,
    );
    // Another rotation (or a deletion) came between the read and this write: this secret would never sign.
    if (!rotated) throw new AppError('CONFLICT', 'The endpoint changed during the rotation; rotate again.');
    await this.deps.db.durable();
    return { secret, previousSecretUntil };
  }

  async listDeliveries(
    shopId: string,
    endpointId: string,
    page: { limit: number; offset: number; status?: repo.DeliveryRow['status'] },
  ): Promise<WebhookDeliveryView[]> {
    await this.requireEndpoint(shopId, endpointId);
    return (await repo.listDeliveries(this.deps.db.db, shopId, endpointId, page)).map(toDeliveryView);
  }

  /** Sends a finished delivery again (failed, or succeeded and lost by the receiver), with a fresh set of attempts (the same webhook-id and body). */
  async retryDelivery(shopId: string, endpointId: string, id: string): Promise<void> {
    const endpoint = await this.requireEndpoint(shopId, endpointId);
    if (endpoint.enabled !== 1) throw new AppError('CONFLICT', 'The endpoint is disabled; enable it first.');
    const now = this.deps.clock.now();
    await this.deps.db.db.transaction().execute(async (trx) => {
      if (!(await repo.reopenFailedDelivery(trx, shopId, endpointId, id, now))) {
        const found = await repo.findDelivery(trx, shopId, endpointId, id);
        throw found
          ? new AppError('CONFLICT', 'The delivery is pending: it is being sent already.')
          : new AppError('NOT_FOUND', 'Webhook delivery not found.');
      }
      await this.deps.jobs.enqueue('webhooks.deliver', { shopId, endpointId, id }, { executor: trx });
    });
    await this.deps.db.durable();
  }

  /** The messaging seam (outcome-hook.ts): outcomes become `message.*` events. */
  outcomeHook(): OutcomeHook {
    return {
      prepare: async () => this.deps.settings?.refresh(),
      wants: (shopId, outcomes) => outcomes.some((o) => this.wantsOutcome(shopId, o)),
      recorded: async (executor, shopId, deliveries, outcomes, at) => {
        const events = deliveries.flatMap((d) => outcomes.flatMap((o) => messageOutcomeEvent(facts(shopId, d), o, at) ?? []));
        await this.fanOut(executor, shopId, events, at);
      },
    };
  }

  /** Stored tracking events become `tracking.*` events, for shops with an endpoint for their type. */
  trackingSubscriber(): TrackingSubscriber {
    return {
      name: TRACKING_SUBSCRIBER,
      accepts: (event) => this.topics.wants(event.shopId, trackingEventType(event)),
      handle: (event) => this.recordTrackingEvent(event),
    };
  }

  private async recordTrackingEvent(event: StoredEvent): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.db.transaction().execute((trx) => this.fanOut(trx, event.shopId, [trackingEvent(event)], now));
    await this.deps.db.durable();
  }

  private wantsOutcome(shopId: string, outcome: HookedOutcome): boolean {
    const type = outcomeEventType(outcome);
    return type !== undefined && this.topics.wants(shopId, type);
  }

  /** One delivery and job per event and enabled endpoint that takes its type; an event recorded before is skipped. */
  private async fanOut(executor: repo.Executor, shopId: string, events: readonly WebhookEvent[], at: number): Promise<void> {
    if (events.length === 0) return;
    for (const endpoint of await repo.enabledEndpoints(executor, shopId)) {
      const types = new Set(JSON.parse(endpoint.event_types) as string[]);
      for (const event of events) {
        if (!types.has(event.type)) continue;
        const inserted = await repo.insertDelivery(executor, {
          shop_id: shopId,
          endpoint_id: endpoint.id,
          id: event.id,
          event_type: event.type,
          payload: event.body,
          status: 'pending',
          attempts: 0,
          next_attempt_at: at,
          last_attempt_at: null,
          last_status_code: null,
          last_error: null,
          created_at: at,
          updated_at: at,
        });
        // Jobs need no idempotency key: the row's insert and each attempt's conditional update admit one.
        if (inserted)
          await this.deps.jobs.enqueue('webhooks.deliver', { shopId, endpointId: endpoint.id, id: event.id }, { executor, runAt: at });
      }
    }
  }

  private async requireEndpoint(shopId: string, id: string): Promise<repo.EndpointRow> {
    await this.deps.shops.requireShop(shopId);
    const row = await repo.findEndpoint(this.deps.db.db, shopId, id);
    if (!row) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
    return row;
  }

  /** An http(s) URL whose host the private-address guard lets through now (it is checked again at each attempt). */
  private async checkUrl(text: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalidUrl('The URL is not valid.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidUrl('The URL must be http or https.');
    if (url.href.length > MAX_URL_LENGTH) throw invalidUrl(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
    // A password in the URL would be stored and shown in the clear; the signature is what authenticates a delivery.
    if (url.username !== '' || url.password !== '') throw invalidUrl('The URL must not carry a user name or password.');
    const guarded = await resolveGuardedHost(url.hostname, {
      allowPrivate: this.deps.config.fetchAllowPrivate,
      timeoutMs: GUARD_TIMEOUT_MS,
    });
    if (!guarded.ok) {
      throw invalidUrl(
        guarded.code === 'refused_address'
          ? 'The URL points to a local or private network address, which is not allowed.'
          : "The URL's host name could not be resolved.",
      );
    }
    return url.href;
  }

  private async changed(): Promise<void> {
    await this.deps.db.durable();
    await this.topics.reload();
  }
}

function checkEventTypes(given: readonly string[]): string[] {
  const unknown = given.find((type) => !EVENT_TYPES.includes(type));
  if (unknown !== undefined) {
    throw new AppError('VALIDATION_FAILED', `Unknown event type "${unknown}"; types: ${EVENT_TYPES.join(', ')}.`, { field: 'event_types' });
  }
  if (given.length === 0) throw new AppError('VALIDATION_FAILED', 'Name at least one event type.', { field: 'event_types' });
  return [...new Set(given)];
}

function invalidUrl(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { field: 'url' });
}

function facts(shopId: string, d: SentDelivery) {
  return { shopId, code: d.code, seq: d.seq, channel: d.channel, messageType: d.type, profileId: d.profileId, address: d.address };
}

function toEndpoint(row: repo.EndpointRow, now: number): Endpoint {
  const until = row.previous_secret_until === null ? null : Number(row.previous_secret_until);
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: JSON.parse(row.event_types) as string[],
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    previousSecretUntil: until !== null && until > now ? until : null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toDeliveryView(row: repo.DeliveryRow): WebhookDeliveryView {
  const time = (value: number | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: time(row.next_attempt_at),
    lastAttemptAt: time(row.last_attempt_at),
    lastStatusCode: row.last_status_code,
    lastDurationMs: row.last_duration_ms,
    lastError: row.last_error,
    createdAt: Number(row.created_at),
  };
}
