import type { DashboardRollups } from '../dashboards/index.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Late } from '../../late.js';
import type { AudienceService } from '../audience/index.js';
import type { SubscriptionFlagsService } from '../audience/index.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import type { LoyaltyService } from '../loyalty/index.js';
import type { ShopsService } from '../shops/index.js';
import type { TrackingSubscriber } from '../tracking/index.js';
import { ChannelsService } from './channels.service.js';
import { DeliveryService, type SendGate, type TemplateSource } from './delivery.service.js';
import { HistoryService } from './history.service.js';
import { forgetCachedMailings, MailingsService } from './mailings.service.js';
import { TemplatesService } from './templates.service.js';
import { MessageWriter } from './message-writer.js';
import type { OutcomeHook } from './outcome-hook.js';
import { OutcomesService } from './outcomes.service.js';
import type { AppleWalletSettings } from './providers/apple-wallet.settings.js';
import type { ProviderRegistry } from './providers/registry.js';
import { createProviderRegistry } from './providers/vendors.js';
import { TemplateRenderer } from './render.js';
import type { SecretBox } from './secret-box.js';
import { ChannelTestService } from './channel-test.service.js';
import { DeliveryLogService } from './delivery-log.service.js';
import { TransactService } from './transact.service.js';
import { WalletService } from './wallet/wallet.service.js';
import { WebPushService } from './web-push.service.js';

/** Where the messages of the other modules' types find their templates (chains, bulk mailings). */
export interface MessageTemplateSources {
  readonly chain: TemplateSource;
  readonly bulk: TemplateSource;
}

export interface MessagingServices {
  /** Messaging vendors by channel (modules/messaging/providers/vendors.ts). */
  readonly messagingProviders: ProviderRegistry;
  /** A shop's provider settings per channel, secrets sealed at rest (docs/messaging.md). */
  readonly messagingChannels: ChannelsService;
  /** Liquid and MJML under limits, with its render thread (modules/messaging/render.ts). */
  readonly templateRenderer: TemplateRenderer;
  /** Transactional mailings: templates by code, their check and preview. */
  readonly mailings: MailingsService;
  /** Any template, saved or not: the editor's preview with located errors, and its test send. */
  readonly templates: TemplatesService;
  /** POST /transact: a message and its delivery jobs, committed before the answer. */
  readonly transact: TransactService;
  /** Plans and stores one message to one profile; every message kind writes through it. */
  readonly messageWriter: MessageWriter;
  /** The `messaging.deliver` job: render, rate, send, record. */
  readonly messageDelivery: DeliveryService;
  /** GET /notifications, its counters, a message by code, the admin's delivery log. */
  readonly messageHistory: HistoryService;
  /** What became of sent messages: tracking links, SDK reports, bounces, attribution (docs/messaging.md "Tracking"). */
  readonly messageOutcomes: OutcomesService;
  /**
   * Apple Wallet passes: issue, the PassKit web service, and `deliverWalletMessage` for the
   * messaging engine (docs/messaging-wallet.md). Its channel settings are the engine's.
   */
  readonly wallet: WalletService;
  /** Browser push subscriptions: the web_push channel's addresses (docs/messaging-push.md). */
  readonly webPush: WebPushService;
  /** A channel's test send through its real vendor (POST …/channels/{channel}/test). */
  readonly channelTests: ChannelTestService;
  /** The admin's delivery log: search, and one message with its content, tries and outcomes. */
  readonly deliveryLog: DeliveryLogService;
}

export interface MessagingModule {
  readonly services: MessagingServices;
  readonly jobs: Pick<JobHandlers, 'messaging.deliver'>;
  readonly mergeParticipants: readonly MergeParticipant[];
  readonly trackingSubscribers: readonly TrackingSubscriber[];
  /** What an admin change drops (docs/settings-caches.md). */
  readonly settingsListeners: readonly (() => void)[];
}

/**
 * The messaging engine (docs/messaging.md). Vendor classes are listed in
 * providers/vendors.ts; mobile_push vendors say which tokens they take (`accepts`), so the
 * engine picks one per message.
 */
export function createMessagingModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly config: Config;
  readonly jobs: JobQueue;
  readonly shops: ShopsService;
  readonly identity: IdentityService;
  readonly audience: AudienceService;
  readonly subscriptionFlags: SubscriptionFlagsService;
  /** The wallet's passes show the member's balance. */
  readonly loyalty: Pick<LoyaltyService, 'findMember' | 'balanceAt'>;
  readonly box: SecretBox;
  /** Told of each outcome and send in its recording transaction (outbound webhooks). */
  readonly outcomeHook: OutcomeHook;
  /** The chains' and bulk mailings' templates: modules built after the engine (src/services.ts binds them). */
  readonly messageTemplates: Late<MessageTemplateSources>;
  /** Quiet hours (bulk's limits, built after the engine). */
  readonly sendGate: Late<SendGate>;
  /** The dashboards' rollups: sends, outcomes and attributed purchases, counted as they are recorded. */
  readonly rollups?: DashboardRollups;
}): MessagingModule {
  const { db, clock, config, jobs, shops, identity, audience, box, outcomeHook, rollups } = deps;
  const registry = createProviderRegistry(clock);
  const renderer = new TemplateRenderer({ clock, limits: config.render });
  const channels = new ChannelsService({ db, clock, shops, registry, box });
  const outcomes = new OutcomesService({
    db,
    clock,
    box,
    publicUrl: config.publicUrl,
    flags: deps.subscriptionFlags,
    identity,
    attributionWindowMs: config.messageAttributionMs,
    outcomeHook,
    ...(rollups && { rollups }),
  });
  const wallet = new WalletService({
    db,
    clock,
    publicUrl: config.publicUrl,
    shops,
    identity,
    loyalty: deps.loyalty,
    settings: async (shopId) => (await channels.settingsFor(shopId, 'wallet'))?.vendors.apple_wallet as AppleWalletSettings | undefined,
  });
  // The channels whose addresses the engine does not store: their sources, the wallet's
  // pass text stored before its update push, and dead addresses dropped from their stores.
  const webPush = new WebPushService({ db, clock, identity, channels });
  const writer = new MessageWriter({
    identity,
    audience,
    channels,
    jobs,
    addressSources: {
      web_push: (shopId, profileId) => webPush.addresses(shopId, profileId),
      wallet: (shopId, profileId) => wallet.addresses(shopId, profileId),
    },
  });
  const delivery = new DeliveryService({
    db,
    clock,
    config,
    identity,
    audience,
    channels,
    registry,
    renderer,
    jobs,
    links: outcomes,
    outcomeHook,
    ...(rollups && { rollups }),
    beforeSend: {
      wallet: async (shopId, profileId, message) => {
        await wallet.deliverWalletMessage(shopId, profileId, message.text);
      },
    },
    deadAddress: {
      web_push: (shopId, address) => webPush.forgetAddress(shopId, address),
      wallet: (shopId, address) => wallet.forgetAddress(shopId, address),
    },
    templateSources: deps.messageTemplates,
    sendGate: deps.sendGate,
  });
  return {
    services: {
      messagingProviders: registry,
      messagingChannels: channels,
      templateRenderer: renderer,
      mailings: new MailingsService({ db, clock, shops, renderer }),
      templates: new TemplatesService({ db, clock, shops, identity, audience, channels, renderer, writer }),
      transact: new TransactService({ db, clock, identity, writer }),
      messageWriter: writer,
      messageDelivery: delivery,
      messageHistory: new HistoryService({ db, identity }),
      messageOutcomes: outcomes,
      wallet,
      webPush,
      channelTests: new ChannelTestService({ db, clock, shops, channels, delivery }),
      deliveryLog: new DeliveryLogService({ db, shops, identity }),
    },
    jobs: {
      // One delivery of a message: its own retries are new jobs (delivery.service.ts); a throw
      // (a database fault) is retried by the runner, and the delivery's status and send mark
      // make a rerun harmless (send-marks.ts). The claim fences the send: a run whose job went
      // to another claim does not call the vendor.
      // Slots of their own (PATRON_DELIVERY_CONCURRENCY): a send mostly waits on the vendor's round trip.
      'messaging.deliver': {
        handler: (payload, ctx) =>
          delivery.deliver(payload, { signal: ctx.signal, claim: { id: ctx.jobId, attempts: ctx.attempt, workerId: ctx.workerId } }),
        options: { concurrency: config.deliveryConcurrency },
      },
    },
    mergeParticipants: [wallet.mergeParticipant(), webPush.mergeParticipant()],
    // Purchase events credit the message the customer came from (docs/messaging.md, "Tracking").
    trackingSubscribers: [outcomes.trackingSubscriber()],
    settingsListeners: [() => channels.forgetCachedSettings(), () => forgetCachedMailings(db)],
  };
}
