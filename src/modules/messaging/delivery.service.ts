import type { DashboardRollups } from '../dashboards/index.js';
import { redactCredentials } from '../../observability/redact-credentials.js';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import { groupWriteOf } from '../../db/group-write.js';
import { whileDatabaseUnavailable } from '../../db/unavailable.js';
import { retryDelayMs, type BackoffPolicy } from '../../jobs/backoff.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobClaim, JobQueue } from '../../jobs/queue.js';
import type { Late } from '../../late.js';
import type { AudienceService } from '../audience/index.js';
import type { IdentityService } from '../identity/index.js';
import type { ChannelsService } from './channels.service.js';
import { rewriteEmailHtml, unsubscribeHeaders } from './domain/tracking-links.js';
import type { OutcomesService } from './outcomes.service.js';
import { afterOutcome, type OutcomeHook } from './outcome-hook.js';
import { templatesFor, type ChannelTemplates, type MailingTemplates } from './domain/mailing.js';
import type { MessageType } from './history.service.js';
import { buildOutgoing, type Outgoing, type SentContent } from './domain/outgoing.js';
import { secretValuesOf } from './domain/channel-settings.js';
import * as health from './channel-health.repo.js';
import * as log from './delivery-log.repo.js';
import { SendRates } from './send-rate.js';
import type { BeforeSendHook, DeadAddressHook, SendGate, TemplateSource } from './delivery-hooks.js';
import { findMailingForSend } from './mailings.service.js';
import { localeOf, readProfileScope } from './profile-scope.js';
import * as templatesRepo from './templates.repo.js';
import * as repo from './messaging.repo.js';
import type { Channel, SendResult } from './providers/provider.js';
import type { ProviderRegistry } from './providers/registry.js';
import { RenderBudgetSpent, templateScope, type TemplateRenderer } from './render.js';
import { SendMarks, type SeenMark } from './send-marks.js';

export type { BeforeSendHook, DeadAddressHook, SendGate, TemplateSource };

/** Sends of one delivery in all, the first included, before a temporary failure becomes final. */
export const MAX_SEND_ATTEMPTS = 8;
/** Retry timing of temporary failures: 10 s, doubling, at most an hour (retryAfterMs may ask for more). */
export const SEND_BACKOFF: BackoffPolicy = { baseMs: 10_000, maxMs: 60 * 60 * 1000 };
const ERROR_LIMIT = 1000;
/** How long an accepted send's outcome is written again through a database outage before the job fails. */
const OUTCOME_RETRY_MS = 5 * 60 * 1000;

type Payload = JobMap['messaging.deliver'];

/**
 * The `messaging.deliver` job (docs/messaging.md, "Delivery"): renders one delivery's
 * template, picks the vendor through the registry, waits for the send rate, sends, and
 * records the outcome. Retries of temporary failures are this service's own (a new job
 * at the backoff or the vendor's retryAfterMs, whichever is later), so that the wait a
 * vendor asks for is kept; a permanent failure is recorded with the vendor's words; a
 * dead address also goes on the shop's dead list and is not tried again. A delivery is
 * sent by one run at a time, whatever becomes of job leases (send-marks.ts); only a worker
 * killed between the vendor's acceptance and the commit of its outcome leaves a message
 * that is sent again, once a lease has passed (docs/messaging.md, "Sending once").
 */
export class DeliveryService {
  private readonly rates = new SendRates();
  private readonly marks: SendMarks;

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly config: Pick<Config, 'fetchAllowPrivate' | 'jobLeaseMs'>;
      readonly identity: Pick<IdentityService, 'getProfileOnly'>;
      readonly audience: Pick<AudienceService, 'getLiveCustomerAttributes'>;
      readonly channels: Pick<ChannelsService, 'settingsFor'>;
      readonly registry: ProviderRegistry;
      readonly renderer: TemplateRenderer;
      readonly jobs: JobQueue;
      /** Signed tracking links of emails (docs/messaging.md, "Tracking"); none without it. */
      readonly links?: Pick<OutcomesService, 'emailLinks'>;
      /** Told of each send in its recording transaction (outbound webhooks). */
      readonly outcomeHook?: OutcomeHook;
      /** The dashboards' rollups: a sent delivery is counted in the commit that marks it sent. */
      readonly rollups?: Pick<DashboardRollups, 'messageOutcome'>;
      /** A channel's pre-send step (the wallet's). */
      readonly beforeSend?: { readonly [C in Channel]?: BeforeSendHook<C> };
      /** What a channel's own store does with an address its vendor declared dead. */
      readonly deadAddress?: Partial<Record<Channel, DeadAddressHook>>;
      /**
       * Where messages of a type other than transactional find their templates (chains,
       * bulk mailings): modules built after the engine, bound by the composition root.
       */
      readonly templateSources?: Late<{ readonly [T in Exclude<MessageType, 'transactional'>]?: TemplateSource }>;
      /** The gate that may postpone bulk and chain deliveries (quiet hours: bulk's limits, built after the engine); transactional ones never pass it. */
      readonly sendGate?: Late<SendGate>;
    },
  ) {
    this.marks = new SendMarks({ db: deps.db, jobs: deps.jobs, leaseMs: deps.config.jobLeaseMs });
  }

  /** `claim`: the job run's, which must still hold its job when the vendor is called. */
  async deliver(payload: Payload, options: { signal?: AbortSignal; claim?: JobClaim } = {}): Promise<void> {
    const delivery = await repo.findDeliveryToSend(this.deps.db.db, payload.shopId, payload.code, payload.seq);
    if (!delivery || delivery.status !== 'queued') return;
    // Another run is sending it (its lease ran out under it, or it died): never a second send while it may be alive.
    let seen: SeenMark | null = null;
    if (delivery.send_token !== null) {
      const mark = { token: delivery.send_token, beat: Number(delivery.send_beat) };
      const waited = await this.marks.awaitSender(repo.queuedKeyOf(delivery), mark, options.signal);
      if (waited.settled) return;
      seen = waited.seen;
    }
    const unsent = { token: seen?.token ?? null };
    // A test of a template saved nowhere carries its templates and the profile they render with (templates.service.ts).
    const own =
      delivery.message_test === 1 ? await templatesRepo.findMessageTemplates(this.deps.db.db, payload.shopId, delivery.code) : undefined;
    const templates = own ? (JSON.parse(own.templates) as MailingTemplates) : await this.templatesOf(payload.shopId, delivery);
    if (!templates) return this.finish(delivery, { ok: false, kind: 'permanent', message: 'The mailing no longer exists.' }, unsent);
    const channel = delivery.channel as Channel;
    const sendGate = this.deps.sendGate?.get();
    if (sendGate && delivery.message_type !== 'transactional') {
      const now = this.deps.clock.now();
      const at = await sendGate(payload.shopId, channel, delivery.message_type, now);
      if (at > now) return this.postpone(payload, delivery.attempts, at);
    }

    const { set, profileScope } = own
      ? ownTemplateSet(templates, JSON.parse(own.profile) as Record<string, unknown>)
      : await this.templateSet(payload.shopId, delivery.profile_id, templates, channel);
    const variables = JSON.parse(delivery.variables) as Record<string, unknown>;
    let outgoing;
    try {
      const rendered = { [channel]: await this.deps.renderer.render(payload.shopId, set, channel, templateScope(variables, profileScope)) };
      outgoing = buildOutgoing(
        {
          shopId: delivery.shop_id,
          channel,
          address: delivery.address,
          platform: delivery.platform,
          code: delivery.code,
          seq: delivery.seq,
          type: delivery.message_type,
          cc: JSON.parse(delivery.cc) as string[],
          bcc: JSON.parse(delivery.bcc) as string[],
        },
        rendered,
      );
    } catch (error) {
      // The shop's render time is spent for now (render.ts): the delivery waits its turn, not counted as an attempt.
      if (error instanceof RenderBudgetSpent) return this.postpone(payload, delivery.attempts, this.deps.clock.now() + error.waitMs);
      return this.finish(delivery, { ok: false, kind: 'permanent', message: `The template does not render: ${errorText(error)}` }, unsent);
    }
    if (!outgoing)
      return this.finish(delivery, { ok: false, kind: 'permanent', message: `The mailing has no ${channel} template.` }, unsent);
    // The delivery log shows the HTML as rendered: its links are the shop's own, not tracking links an admin's look would click.
    const html = outgoing.channel === 'email' ? outgoing.message.html : undefined;
    // A test send keeps no statistics, so its email carries no tracking links.
    if (outgoing.channel === 'email' && delivery.message_test === 0 && this.deps.links) {
      const urls = await this.deps.links.emailLinks(payload.shopId, delivery.code);
      const email = outgoing.message;
      outgoing = {
        ...outgoing,
        message: {
          ...email,
          html: rewriteEmailHtml(email.html, urls),
          headers: { ...email.headers, ...unsubscribeHeaders(urls.unsubscribe) },
        },
      };
    }

    await this.sendAndRecord(delivery, outgoing, {
      html,
      seen,
      ...(options.signal && { signal: options.signal }),
      ...(options.claim && { claim: options.claim }),
    });
  }

  /**
   * Sends a rendered delivery through the channel's configured vendor and records the
   * attempt; undefined when this run may not send it (send-marks.ts: its job or the
   * delivery went to another run). `test` (a channel's test send): no pre-send hook, the
   * vendor is given `signal`, and a temporary failure is final, since the admin reads the
   * answer at once. `seen`: the mark of a sender taken for dead, to take over.
   */
  async sendAndRecord(
    delivery: repo.DeliveryRow,
    outgoing: Outgoing,
    options: { html?: string | undefined; signal?: AbortSignal; test?: boolean; claim?: JobClaim; seen?: SeenMark | null } = {},
  ): Promise<SendResult | undefined> {
    const channel = outgoing.channel;
    const settings = await this.deps.channels.settingsFor(delivery.shop_id, channel);
    const seen = options.seen ?? null;
    const record = { content: outgoing.content, html: options.html, final: options.test ?? false, token: seen?.token ?? null };
    if (!settings) {
      const result: SendResult = { ok: false, kind: 'permanent', message: `Channel ${channel} is not configured for the shop.` };
      await this.finish(delivery, result, record);
      return result;
    }
    const provider = this.deps.registry.pick(channel, Object.keys(settings.vendors), outgoing.message);
    if (!provider) {
      const result: SendResult = { ok: false, kind: 'permanent', message: `No configured vendor of ${channel} can carry this message.` };
      await this.finish(delivery, result, record);
      return result;
    }
    const vendorSettings = settings.vendors[provider.vendor] ?? {};
    await this.rates.wait(`${delivery.shop_id}:${channel}:${provider.vendor}`, settings.ratePerSecond, options.signal);
    const startedAt = performance.now();
    let result: SendResult | undefined;
    try {
      if (!options.test) {
        await (this.deps.beforeSend?.[channel] as BeforeSendHook | undefined)?.(delivery.shop_id, delivery.profile_id, outgoing.message);
      }
    } catch (error) {
      result = { ok: false, kind: 'temporary', message: errorText(error) };
    }
    let token = record.token;
    if (!result) {
      // A throw here (the database) fails the job: its rerun finds this mark, waits a lease and takes it over.
      const mine = await this.marks.take(repo.queuedKeyOf(delivery), seen, options.claim);
      if (mine === undefined) return undefined;
      token = mine;
      // A job's signal is not passed on: cut off mid-request, a send's outcome would be unknown.
      // The vendor's own timeouts bound it; a test send is given the admin's deadline.
      const context = {
        allowPrivate: this.deps.config.fetchAllowPrivate,
        ...(options.test && options.signal && { signal: options.signal }),
      };
      result = await this.marks.beating(repo.queuedKeyOf(delivery), mine, () =>
        provider.send(vendorSettings, outgoing.message, context).catch(
          // A vendor class should answer a SendResult; one that throws is treated as a temporary fault.
          (error: unknown): SendResult => ({ ok: false, kind: 'temporary', message: errorText(error) }),
        ),
      );
    }
    const tried = {
      vendor: provider.vendor,
      durationMs: Math.round(performance.now() - startedAt),
      secrets: secretValuesOf(vendorSettings, provider.secretFields),
    };
    const outcome = result;
    const finish = () => this.finish(delivery, outcome, { ...record, token, tried });
    // The vendor was called: its outcome is recorded through a database outage (PostgreSQL
    // restarting), beating on the mark meanwhile; a run that gave up would leave the mark
    // to be taken over and the message sent again.
    if (typeof token === 'string' && token !== record.token)
      await this.marks.beating(repo.queuedKeyOf(delivery), token, () => whileDatabaseUnavailable(finish, OUTCOME_RETRY_MS));
    else await finish();
    return result;
  }

  /** The delivery stays queued, untouched; a new job tries it at `at` (its key keeps a rerun of this job from adding another). */
  private async postpone(payload: Payload, attempts: number, at: number): Promise<void> {
    await this.deps.jobs.enqueue('messaging.deliver', payload, {
      runAt: at,
      idempotencyKey: `${payload.shopId}:${payload.code}:${payload.seq}:${attempts}:at${at}`,
    });
  }

  /**
   * The templates for the recipient's locale, with the scope's `profile`. Both need the
   * profile and its attributes, read only when the mailing has locale variants or the
   * channel's templates may read the profile (most transactional ones name only variables).
   */
  private async templateSet(
    shopId: string,
    profileId: number,
    templates: MailingTemplates,
    channel: Channel,
  ): Promise<{ set: ChannelTemplates; profileScope: Record<string, unknown> }> {
    const hasLocales = Object.keys(templates.locales ?? {}).length > 0;
    if (!hasLocales && !this.deps.renderer.readsProfile(templates, channel)) return { set: templates, profileScope: {} };
    // A profile gone (merged away, erased) renders as one without fields, as before.
    const profileScope = (await readProfileScope(this.deps, shopId, profileId)) ?? {
      email: null,
      phone: null,
      external_id: null,
      loyalty_id: null,
      telegram_id: null,
    };
    const locale = localeOf(profileScope);
    return { set: templatesFor(templates, locale), profileScope };
  }

  private async templatesOf(shopId: string, delivery: repo.DeliveryToSend): Promise<MailingTemplates | undefined> {
    const type = delivery.message_type;
    const source = type === 'transactional' ? undefined : this.deps.templateSources?.get()[type];
    if (source) return source(shopId, delivery.mailing_code);
    return (await findMailingForSend(this.deps.db, this.deps.clock, shopId, delivery.mailing_code))?.templates;
  }

  /**
   * Records one attempt's outcome, the attempt itself, and the channel's health (its counts
   * and last vendor error, channel-health.repo.ts); a temporary failure with attempts left
   * schedules the next try in the same commit.
   */
  private async finish(delivery: repo.DeliveryRow, result: SendResult, record: FinishRecord): Promise<void> {
    const now = this.deps.clock.now();
    const attempts = delivery.attempts + 1;
    const key = { shopId: delivery.shop_id, code: delivery.code, seq: delivery.seq, attempts: delivery.attempts, token: record.token };
    const vendor = record.tried?.vendor;
    const common = { attempts, updated_at: now, ...(record.content ?? {}), ...(vendor !== undefined && { vendor }) };
    // Vendors quote what they were sent; whatever the provider let through stops here, its own secrets first.
    const error = result.ok ? null : redactCredentials(result.message, record.tried?.secrets).slice(0, ERROR_LIMIT);
    const { shop_id: shopId, channel } = delivery;
    let dead = false;
    // Shared with the other outcomes and messages of the moment (db/group-write.ts); resolves once on disk.
    await groupWriteOf(this.deps.db).run(async (trx) => {
      dead = false;
      const attempt = async (outcome: AttemptOutcome) => {
        await log.insertAttempt(trx, {
          shop_id: shopId,
          code: delivery.code,
          seq: delivery.seq,
          attempt: attempts,
          at: now,
          vendor: vendor ?? null,
          outcome,
          answer: result.ok ? (result.providerMessageId ?? null) : error,
          duration_ms: record.tried?.durationMs ?? 0,
        });
        if (!result.ok && vendor !== undefined && error !== null)
          await health.recordError(trx, { shopId, channel, vendor, error, at: now });
        if (record.html !== undefined && outcome !== 'temporary') await log.saveHtml(trx, shopId, delivery.code, delivery.seq, record.html);
      };
      if (result.ok) {
        const sent = await repo.updateQueuedDelivery(trx, key, {
          ...common,
          status: 'sent',
          sent_at: now,
          error: null,
          provider_message_id: result.providerMessageId ?? null,
        });
        if (!sent) return;
        await attempt('sent');
        await health.countOutcome(trx, shopId, channel, 'sent', now);
        if (delivery.test === 0 && this.deps.rollups) {
          const marked = { channel: delivery.channel, type: delivery.type, mailingId: Number(delivery.mailing_id) };
          await this.deps.rollups.messageOutcome(trx, delivery.shop_id, 'sent_at', [marked], now);
        }
        await afterOutcome(
          trx,
          this.deps.outcomeHook,
          { shopId: delivery.shop_id, code: delivery.code, channel: delivery.channel, seq: delivery.seq },
          ['sent_at'],
          now,
        );
        return;
      }
      if (result.kind === 'temporary' && attempts < MAX_SEND_ATTEMPTS && !record.final) {
        const updated = await repo.updateQueuedDelivery(trx, key, { ...common, error });
        if (!updated) return;
        await attempt('temporary');
        const delay = Math.max(retryDelayMs(attempts, SEND_BACKOFF), result.retryAfterMs ?? 0);
        await this.deps.jobs.enqueue(
          'messaging.deliver',
          { shopId: delivery.shop_id, code: delivery.code, seq: delivery.seq },
          { executor: trx, runAt: now + delay, idempotencyKey: `${delivery.shop_id}:${delivery.code}:${delivery.seq}:${attempts}` },
        );
        return;
      }
      const updated = await repo.updateQueuedDelivery(trx, key, { ...common, status: 'failed', error });
      if (!updated) return;
      await attempt(result.kind);
      await health.countOutcome(trx, shopId, channel, 'failed', now);
      if (result.kind === 'dead_address') {
        await repo.insertDeadAddress(trx, {
          shop_id: delivery.shop_id,
          channel: delivery.channel,
          address: delivery.address,
          reason: error ?? '',
          created_at: now,
        });
        dead = true;
      }
    });
    // After the commit: the dead list already keeps the address out, the channel's store is tidied on top.
    if (dead) await this.deps.deadAddress?.[delivery.channel as Channel]?.(delivery.shop_id, delivery.address);
  }
}

/** The templates for the locale of the profile a test carries, and that profile. */
function ownTemplateSet(
  templates: MailingTemplates,
  profileScope: Record<string, unknown>,
): { set: ChannelTemplates; profileScope: Record<string, unknown> } {
  return { set: templatesFor(templates, localeOf(profileScope)), profileScope };
}

type AttemptOutcome = 'sent' | 'temporary' | 'permanent' | 'dead_address' | 'unknown';

/** What finish records beside the outcome: the content sent, the email's HTML, and the vendor tried. */
interface FinishRecord {
  /** The send mark the outcome is conditional on (and clears): this run's, one it took over, or null for none. */
  readonly token: string | null;
  readonly content?: SentContent;
  readonly html?: string | undefined;
  /** A temporary failure is final: no retry is scheduled (a test send). */
  readonly final?: boolean;
  readonly tried?: { readonly vendor: string; readonly durationMs: number; readonly secrets: readonly string[] };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
