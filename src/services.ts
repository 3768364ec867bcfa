import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { DbHandle } from './db/create-db.js';
import { JobQueue } from './jobs/queue.js';
import { AudienceService } from './modules/audience/audience.service.js';
import { CustomPropertiesService } from './modules/audience/custom-properties.service.js';
import { ProfilesService } from './modules/audience/profiles.service.js';
import { SegmentsService, type SegmentEntryListener } from './modules/audience/segments.service.js';
import { CatalogService } from './modules/catalog/catalog.service.js';
import type { CatalogLandedListener, CatalogServedListener } from './modules/catalog/catalog.types.js';
import { CollectionsService } from './modules/collections/collections.service.js';
import { ListingService } from './modules/catalog/listing.service.js';
import { BonusHolds } from './modules/loyalty/bonus-holds.js';
import { LoyaltyLedger, type LotsDueHook } from './modules/loyalty/loyalty-ledger.js';
import { LoyaltyLevelsService } from './modules/loyalty/loyalty-levels.service.js';
import { LoyaltyPublicService } from './modules/loyalty/loyalty-public.service.js';
import { LoyaltyReferralService } from './modules/loyalty/loyalty-referral.service.js';
import { LoyaltyRewardsService } from './modules/loyalty/loyalty-rewards.service.js';
import { LoyaltyService } from './modules/loyalty/loyalty.service.js';
import { LoyaltyUpkeepService } from './modules/loyalty/loyalty-upkeep.service.js';
import { LoyaltyReportsService } from './modules/loyalty/loyalty-reports.service.js';
import { ProductsService } from './modules/catalog/products.service.js';
import { CertificateHolds } from './modules/promotions/certificate-holds.js';
import { CertificatesService } from './modules/promotions/certificates.service.js';
import { PromoCodeHolds } from './modules/promotions/promo-code-holds.js';
import { PromoCodesService } from './modules/promotions/promo-codes.service.js';
import { PromotionsService } from './modules/promotions/promotions.service.js';
import type { CheckoutHoldParticipant } from './modules/checkout/checkout-holds.js';
import { CheckoutInputs } from './modules/checkout/checkout-inputs.js';
import { CheckoutService } from './modules/checkout/checkout.service.js';
import { CheckoutSettle } from './modules/checkout/checkout-settle.js';
import { IdentityService, type MergeParticipant } from './modules/identity/identity.service.js';
import { Late } from './late.js';
import { ImagesService } from './modules/images/images.service.js';
import { ProductFacts } from './modules/catalog/product-facts.js';
import { ProductSubscriptionsService, type AlertsWrittenListener } from './modules/product-subscriptions/product-subscriptions.service.js';
import { ProfileViewService } from './modules/profile-view/profile-view.service.js';
import { SearchService } from './modules/search/search.service.js';
import { ShopperViewService } from './modules/shopper-view/shopper-view.service.js';
import { ShopsService } from './modules/shops/shops.service.js';
import { SlidersService } from './modules/sliders/sliders.service.js';
import { AdminTokenService } from './modules/system/admin-token.service.js';
import { SettingsVersion, type SettingsListener } from './modules/system/settings-version.js';
import { TrackingService } from './modules/tracking/tracking.service.js';
import type { TrackingSubscriber } from './modules/tracking/tracking.types.js';
import { SubscriptionMembersService } from './modules/subscriptions/subscription-members.service.js';
import { BenefitHolds } from './modules/subscriptions/subscription-holds.js';
import { SubscriptionUsageService } from './modules/subscriptions/subscription-usage.service.js';
import { SubscriptionsService } from './modules/subscriptions/subscriptions.service.js';
import { ChannelsService } from './modules/messaging/channels.service.js';
import { DeliveryService, type SendGate, type TemplateSource } from './modules/messaging/delivery.service.js';
import { HistoryService } from './modules/messaging/history.service.js';
import { forgetCachedMailings, MailingsService } from './modules/messaging/mailings.service.js';
import type { ProviderRegistry } from './modules/messaging/providers/registry.js';
import { createProviderRegistry } from './modules/messaging/providers/vendors.js';
import { TemplateRenderer } from './modules/messaging/render.js';
import { SecretBox } from './modules/messaging/secret-box.js';
import { OutcomesService } from './modules/messaging/outcomes.service.js';
import { SubscriptionFlagsService } from './modules/audience/subscription-flags.service.js';
import { MessageWriter } from './modules/messaging/message-writer.js';
import { TransactService } from './modules/messaging/transact.service.js';
import { WalletService } from './modules/messaging/wallet/wallet.service.js';
import { WebPushService } from './modules/messaging/web-push.service.js';
import type { AppleWalletSettings } from './modules/messaging/providers/apple-wallet.settings.js';
import { WebhookDelivery } from './modules/webhooks/webhooks.delivery.js';
import { WebhooksService } from './modules/webhooks/webhooks.service.js';
import { ChainSteps } from './modules/chains/chain-steps.js';
import { ChainsService } from './modules/chains/chains.service.js';
import type { ChainStarter } from './modules/chains/chain-starter.js';
import { createChainTriggers, type ChainTriggers } from './modules/chains/triggers/chain-triggers.js';
import { BulkExpansion } from './modules/bulk/bulk-expand.js';
import { BulkService } from './modules/bulk/bulk.service.js';
import { LimitsService } from './modules/bulk/limits.service.js';

/** Every service, built once per process from explicit dependencies. */
export interface Services {
  /** Tells the caches of admin settings of every thread and process of an admin change (docs/settings-caches.md). */
  readonly settings: SettingsVersion;
  readonly shops: ShopsService;
  readonly adminToken: AdminTokenService;
  /** Profiles, devices and identifiers; other modules register merge participants on it. */
  readonly identity: IdentityService;
  /** The durable job queue: services enqueue; the process's JobRunner (if any) runs. */
  readonly jobs: JobQueue;
  /** Sessions, events (group-committed), carts, wish lists, orders, product counters. */
  readonly tracking: TrackingService;
  /** The admin read model: profiles with their devices, segments and lists; a device's events. */
  readonly profileView: ProfileViewService;
  /** Segments of the admin API; the profile view's segment source. */
  readonly segments: SegmentsService;
  /** Custom user property codes and types (admin API), checked by audience imports. */
  readonly customProperties: CustomPropertiesService;
  /** Audience import (POST /import/audience, the CLI) and its import log. */
  readonly audience: AudienceService;
  /** Profiles as the shop's app sets and reads them: fields, flags, push tokens, static segments. */
  readonly profiles: ProfilesService;
  /** The product feed: imports by generation; other modules register landed listeners on it. */
  readonly catalog: CatalogService;
  /** Sliders (banner sets) of the admin API and GET /slider. */
  readonly sliders: SlidersService;
  /** Product pictures: downloaded after each import, thumbnails served under /images/. */
  readonly images: ImagesService;
  /** The public catalog reads: products, counters, the category tree, hidden products. */
  readonly products: ProductsService;
  /** The catalog as a storefront lists it: GET /products, GET /category/{id}, search's filters and facets. */
  readonly listing: ListingService;
  /** Back-in-stock and price-drop subscriptions; alerts recorded when an import lands. */
  readonly productSubscriptions: ProductSubscriptionsService;
  /** Product search over the served catalog, the search log and its no-result queries. */
  readonly search: SearchService;
  /** Product collections of the admin API and GET /collection/{id}. */
  readonly collections: CollectionsService;
  /** A customer's cart and orders with product data (GET /products/cart, /orders/…). */
  readonly shopperView: ShopperViewService;
  /** The loyalty programme: settings, members, manual credits and debits (docs/loyalty.md). */
  readonly loyalty: LoyaltyService;
  /** The bonus ledger's writes: credits, draws, holds, cancels, refunds, expiry (loyalty-ledger.ts). */
  readonly loyaltyLedger: LoyaltyLedger;
  /** GET /loyalty/members/status and POST /loyalty/members/join (the SDK's public calls). */
  readonly loyaltyPublic: LoyaltyPublicService;
  /** The ledger's upkeep: the per-shop chain of sweeps that confirms and expires lots (docs/loyalty.md, "Upkeep"). */
  readonly loyaltyUpkeep: LoyaltyUpkeepService;
  /** The admin's reads across the ledger: the member list, a member's transactions, the liabilities. */
  readonly loyaltyReports: LoyaltyReportsService;
  /** Loyalty levels: the ladder, the purchases that count, members' levels and their daily recompute. */
  readonly loyaltyLevels: LoyaltyLevelsService;
  /** The referral programme: codes, referrals, the referrer's reward and the checkout's read of it. */
  readonly loyaltyReferrals: LoyaltyReferralService;
  /** Promotions of the admin API and the checkout's loader of active ones (docs/promotions.md). */
  readonly promotions: PromotionsService;
  /** Promo codes, their generation, and the use blocks the checkout holds. */
  readonly promoCodes: PromoCodesService;
  /** Gift certificates, their pools, and the amounts the checkout holds. */
  readonly certificates: CertificatesService;
  /** Event rewards: the rules, the tracking subscriber that credits them, PATCH /loyalty/bonuses/cancel. */
  readonly loyaltyRewards: LoyaltyRewardsService;
  /** The loyalty checkout: estimate, apply, confirm, cancel, history and the admin's orders (docs/checkout.md). */
  readonly checkout: CheckoutService;
  /** Paid subscriptions and their plans (admin API; docs/subscriptions.md). */
  readonly subscriptions: SubscriptionsService;
  /** Subscription members: subscribe, prolong, leave, and the public status and orders reads. */
  readonly subscriptionMembers: SubscriptionMembersService;
  /** Promos benefits' per-period usage: the holds the checkout places, captures and releases. */
  readonly subscriptionUsage: SubscriptionUsageService;
  /** The clock every service was built with (the demo's dates: process/demo-subscription.ts). */
  readonly clock: Clock;
  /** Messaging vendors by channel (modules/messaging/providers/vendors.ts). */
  readonly messagingProviders: ProviderRegistry;
  /** A shop's provider settings per channel, secrets sealed at rest (docs/messaging.md). */
  readonly messagingChannels: ChannelsService;
  /** Liquid and MJML under limits, with its render thread (modules/messaging/render.ts). */
  readonly templateRenderer: TemplateRenderer;
  /** Transactional mailings: templates by code, their check and preview. */
  readonly mailings: MailingsService;
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
   * messaging engine (docs/messaging.md "Wallet"). Its channel settings come through `useSettings`.
   */
  readonly wallet: WalletService;
  /** Browser push subscriptions: the web_push channel's addresses (docs/messaging.md, "Web push subscriptions"). */
  readonly webPush: WebPushService;
  /** Outbound webhook endpoints and the recording of message outcomes and tracking events for them (docs/webhooks.md). */
  readonly webhooks: WebhooksService;
  /** The `webhooks.deliver` job: sign, POST through the address guard, record, retry. */
  readonly webhookDelivery: WebhookDelivery;
  /** Triggered message chains: the admin's chains and the ChainStarter the trigger detectors call (docs/chains.md). */
  readonly chains: ChainsService;
  /** The `chains.step` job: a run's due steps, each at most once. */
  readonly chainSteps: ChainSteps;
  /** The trigger detectors' jobs: abandoned lists, product alerts, segment entries (docs/chains.md, "Triggers"). */
  readonly chainTriggers: ChainTriggers;
  /** Frequency caps and quiet hours per channel (docs/bulk.md); the delivery path's send gate. */
  readonly messagingLimits: LimitsService;
  /** Bulk mailings to segments: create, read, the A/B decision (docs/bulk.md). */
  readonly bulkMailings: BulkService;
  /** The `bulk.expand` job: a bulk mailing's members, page by page, into messages. */
  readonly bulkExpansion: BulkExpansion;
}

/** What a test hands the modules in place of, or after, the app's own; production passes none. */
export interface TestProbes {
  /** The engine the trigger detectors start runs on; the chains service unless a test of the detectors records them instead. */
  readonly triggerStarter?: ChainStarter;
  /** Hold participants after the shop's own (a test's probe of the checkout's transactions). */
  readonly checkoutHolds?: readonly CheckoutHoldParticipant[];
  /** Merge participants after the modules' own (a test's failing one). */
  readonly mergeParticipants?: readonly MergeParticipant[];
  /** Tracking subscribers after the modules' own (a test's recorder). */
  readonly trackingSubscribers?: readonly TrackingSubscriber[];
  /** Catalog landed listeners after the modules' own (a test's probe of the landing transaction). */
  readonly catalogListeners?: readonly CatalogLandedListener[];
}

export interface ServicesDeps {
  readonly config: Config;
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly probes?: TestProbes;
}

/** The modules wired: the services the scopes read, and the ordered lists the root handed the shared flows. */
export interface Composition {
  readonly services: Services;
  /** In the order identity runs them in a merge. */
  readonly mergeParticipants: readonly MergeParticipant[];
  /** In the order tracking enqueues their jobs. */
  readonly trackingSubscribers: readonly TrackingSubscriber[];
  /** In the order the catalog runs them in a landing's transaction. */
  readonly catalogListeners: readonly CatalogLandedListener[];
}

/** Every service, built once per process from explicit dependencies. */
export function createServices(deps: ServicesDeps): Services {
  return compose(deps).services;
}

export function compose(deps: ServicesDeps): Composition {
  const { config, db, clock } = deps;
  const settingsListeners = new Late<readonly SettingsListener[]>('the caches of admin settings');
  const settings = new SettingsVersion({ db, clock, listeners: settingsListeners });
  const shops = new ShopsService({ db, clock });
  const mergeParticipants = Late.namedList<MergeParticipant>('merge participant');
  const identity = new IdentityService({ db, clock, mergeParticipants });
  const jobs = new JobQueue({ db, clock });
  const trackingSubscribers = Late.namedList<TrackingSubscriber>('tracking subscriber');
  const tracking = new TrackingService({ db, clock, identity, shops, jobs, settings, subscribers: trackingSubscribers });
  const segmentEntryListeners = new Late<readonly SegmentEntryListener[]>('the segment entry listeners');
  const segments = new SegmentsService({ db, clock, shops, entryListeners: segmentEntryListeners });
  const customProperties = new CustomPropertiesService({ db, clock, shops });
  const audience = new AudienceService({ db, clock, identity, jobs, shops, segments, properties: customProperties });
  const landedListeners = Late.namedList<CatalogLandedListener>('catalog landed listener');
  const servedListeners = new Late<readonly CatalogServedListener[]>('the catalog served listeners');
  const catalog = new CatalogService({ db, clock, shops, jobs, config, landedListeners, servedListeners });
  const images = new ImagesService({ db, clock, config, jobs });
  const alertListeners = new Late<readonly AlertsWrittenListener[]>('the product alert listeners');
  const productSubscriptions = new ProductSubscriptionsService({ db, clock, identity, catalog, alertListeners });
  // What follows a catalog landing, in its transaction and in this order: the pictures' download, the alerts it fires.
  const catalogListeners = [images.landedListener(), productSubscriptions.landedListener(), ...(deps.probes?.catalogListeners ?? [])];
  landedListeners.bind(catalogListeners);
  const products = new ProductsService({
    db,
    clock,
    catalog,
    tracking,
    triggers: productSubscriptions,
    images,
    answerCacheBytes: config.productCacheBytes,
  });
  servedListeners.bind([products.servedListener()]);
  const listing = new ListingService({ db, clock, catalog, products });
  const search = new SearchService({ db, clock, catalog, listing });
  // Every credit of a lot that is pending or expires starts (or moves up) the shop's upkeep
  // chain, whichever service made it; a settings PUT resumes a chain that should run.
  const lotsDue = new Late<LotsDueHook>('the loyalty upkeep');
  const ledger = new LoyaltyLedger({ db, clock, lotsDue });
  const loyaltyUpkeep = new LoyaltyUpkeepService({ db, clock, jobs, ledger });
  lotsDue.bind((shopId, dueAt) => loyaltyUpkeep.ensureScheduled(shopId, dueAt));
  const loyalty = new LoyaltyService({ db, clock, shops, identity, ledger, upkeep: loyaltyUpkeep });
  // Built after the ledger: its merge participant runs after the ledger's (the surviving member exists).
  const loyaltyReferrals = new LoyaltyReferralService({ db, clock, shops, identity, members: loyalty, ledger });
  const loyaltyLevels = new LoyaltyLevelsService({ db, clock, jobs, shops, identity, members: loyalty, purchases: loyaltyReferrals });
  const loyaltyRewards = new LoyaltyRewardsService({ db, clock, shops, identity, ledger, loyalty });
  const promotions = new PromotionsService({ db, clock, shops });
  const promoCodes = new PromoCodesService({ db, clock, shops });
  const certificates = new CertificatesService({ db, clock, shops });
  const subscriptionUsage = new SubscriptionUsageService({ clock });
  // What an order holds, placed at apply, captured at confirm and released at cancel, in
  // the order in which they lock their rows (docs/checkout.md "Orders").
  const checkoutHolds: CheckoutHoldParticipant[] = [
    new PromoCodeHolds({ db }),
    new CertificateHolds({ db }),
    new BonusHolds(ledger),
    new BenefitHolds(subscriptionUsage),
    ...(deps.probes?.checkoutHolds ?? []),
  ];
  const checkout = new CheckoutService({
    db,
    clock,
    shops,
    members: loyalty,
    inputs: new CheckoutInputs({
      db,
      clock,
      members: loyalty,
      levels: loyaltyLevels,
      ledger,
      referrals: loyaltyReferrals,
      promotions,
      promoCodes,
      certificates,
      products: new ProductFacts({ clock, catalog, products }),
      subscriptions: subscriptionUsage,
    }),
    settle: new CheckoutSettle({ db, clock, ledger, members: loyalty, levels: loyaltyLevels, holds: checkoutHolds }),
  });
  // GET /profile derives bought_something from the orders of both (docs/profiles.md).
  const profiles = new ProfilesService({
    db,
    clock,
    identity,
    properties: customProperties,
    audience,
    segments,
    orders: tracking,
    checkoutOrders: checkout,
  });
  // Messaging (docs/messaging.md). Vendor classes are listed here; mobile_push vendors
  // say which tokens they take (`accepts`), so the engine picks one per message.
  const messagingProviders = createProviderRegistry(clock);
  const renderer = new TemplateRenderer({ clock, limits: config.render });
  const messagingBox = new SecretBox({ secretKey: config.secretKey, dataDir: config.dataDir });
  const messagingChannels = new ChannelsService({
    db,
    clock,
    shops,
    registry: messagingProviders,
    box: messagingBox,
  });
  // Outbound webhooks (docs/webhooks.md): message outcomes reach them through the outcome
  // hook, in the transaction that records each outcome; tracking events as a subscriber.
  const webhooks = new WebhooksService({ db, clock, config, shops, jobs, box: messagingBox, settings });
  const outcomeHook = webhooks.outcomeHook();
  const messageOutcomes = new OutcomesService({
    db,
    clock,
    box: messagingBox,
    publicUrl: config.publicUrl,
    flags: new SubscriptionFlagsService({ db, clock, identity }),
    identity,
    attributionWindowMs: config.messageAttributionMs,
    outcomeHook,
  });
  const wallet = new WalletService({
    db,
    clock,
    publicUrl: config.publicUrl,
    shops,
    identity,
    loyalty,
    settings: async (shopId) => (await messagingChannels.settingsFor(shopId, 'wallet'))?.vendors.apple_wallet as AppleWalletSettings | undefined,
  });
  // The channels whose addresses the engine does not store: their sources, the wallet's
  // pass text stored before its update push, and dead addresses dropped from their stores.
  const webPush = new WebPushService({ db, clock, identity, channels: messagingChannels });
  const messageWriter = new MessageWriter({
    identity,
    audience,
    channels: messagingChannels,
    jobs,
    addressSources: {
      web_push: (shopId, profileId) => webPush.addresses(shopId, profileId),
      wallet: (shopId, profileId) => wallet.addresses(shopId, profileId),
    },
  });
  const templateSources = new Late<{ chain: TemplateSource; bulk: TemplateSource }>('the chain and bulk template sources');
  const sendGate = new Late<SendGate>('the send gate');
  const transact = new TransactService({ db, clock, identity, writer: messageWriter });
  const messageDelivery = new DeliveryService({
    db,
    clock,
    config,
    identity,
    audience,
    channels: messagingChannels,
    registry: messagingProviders,
    renderer,
    jobs,
    links: messageOutcomes,
    outcomeHook,
    beforeSend: {
      wallet: async (shopId, profileId, message) => {
        await wallet.deliverWalletMessage(shopId, profileId, message.text);
      },
    },
    deadAddress: {
      web_push: (shopId, address) => webPush.forgetAddress(shopId, address),
      wallet: (shopId, address) => wallet.forgetAddress(shopId, address),
    },
    templateSources,
    sendGate,
  });
  // Chains (docs/chains.md): steps run in the `chains.step` job; their messages find their
  // templates in the chain's version; custom events start the chains they trigger.
  const chainSteps = new ChainSteps({ db, clock, jobs, writer: messageWriter, identity, audience, orders: tracking, segments, levels: loyaltyLevels });
  const chains = new ChainsService({ db, clock, shops, identity, renderer, segments, jobs, steps: chainSteps });
  // The other triggers (docs/chains.md, "Triggers"): abandoned lists and purchases heard from tracking,
  // product alerts from catalog landings, segment entries from member additions.
  const chainTriggerParts = createChainTriggers({
    db,
    clock,
    jobs,
    shops,
    identity,
    tracking,
    products,
    productSubscriptions,
    starter: deps.probes?.triggerStarter ?? chains,
  });
  alertListeners.bind([chainTriggerParts.alertsListener]);
  segmentEntryListeners.bind([chainTriggerParts.segmentEntryListener]);
  // What a merge moves, in this order: the loyalty ledger's participant before those of
  // referrals, levels and rewards, which find the surviving profile a member by then.
  const merges = [
    tracking.mergeParticipant(),
    audience.mergeParticipant(),
    productSubscriptions.mergeParticipant(),
    loyalty.mergeParticipant(),
    loyaltyReferrals.mergeParticipant(),
    loyaltyLevels.mergeParticipant(),
    loyaltyRewards.mergeParticipant(),
    wallet.mergeParticipant(),
    webPush.mergeParticipant(),
    chains.mergeParticipant(),
    chainTriggerParts.mergeParticipant,
    ...(deps.probes?.mergeParticipants ?? []),
  ];
  mergeParticipants.bind(merges);
  // Who hears tracking's events; each accepted event gets its job in this order.
  const subscribers = [
    // The search event of POST /push feeds the search log.
    search.trackingSubscriber(),
    // Members' purchase events count toward their levels.
    loyaltyLevels.trackingSubscriber(),
    // Custom events with a rewarded code credit the member (docs/loyalty.md, "Event rewards").
    loyaltyRewards.trackingSubscriber(),
    // A purchase event with the order_id of a created checkout order confirms it.
    checkout.trackingSubscriber(),
    // Outbound webhooks of tracking events (docs/webhooks.md).
    webhooks.trackingSubscriber(),
    // Purchase events credit the message the customer came from (docs/messaging.md, "Tracking").
    messageOutcomes.trackingSubscriber(),
    // Custom events start the chains they trigger; list changes and purchases move the abandoned-list watches.
    chains.trackingSubscriber(),
    chainTriggerParts.trackingSubscriber,
    ...(deps.probes?.trackingSubscribers ?? []),
  ];
  trackingSubscribers.bind(subscribers);
  // Bulk mailings (docs/bulk.md): their templates by reference, and quiet hours holding bulk and chain deliveries.
  const messagingLimits = new LimitsService({ db, clock, shops });
  const bulkMailings = new BulkService({ db, clock, shops, segments, renderer, jobs });
  const bulkExpansion = new BulkExpansion({ db, clock, writer: messageWriter, limits: messagingLimits, jobs });
  templateSources.bind({
    chain: (shopId, ref) => chains.templates(shopId, ref),
    bulk: (shopId, ref) => bulkMailings.templateSource(shopId, ref),
  });
  sendGate.bind((shopId, channel, type, now) => messagingLimits.sendAt(shopId, channel, type, now));
  // Every cache of admin settings, dropped when an admin changes anything (docs/settings-caches.md).
  settingsListeners.bind([
    () => webhooks.topics.reload(),
    () => {
      for (const cache of [shops, loyalty, loyaltyLevels, loyaltyRewards, promotions, subscriptionUsage, messagingChannels, chains, chainTriggerParts.triggers, messagingLimits, bulkMailings]) {
        cache.forgetCachedSettings();
      }
      forgetCachedMailings(db);
    },
  ]);
  const services: Services = {
    settings,
    shops,
    adminToken: new AdminTokenService({ db, clock, envToken: config.adminToken }),
    identity,
    jobs,
    tracking,
    profileView: new ProfileViewService({ shops, identity, tracking, segments, attributes: audience }),
    segments,
    customProperties,
    audience,
    profiles,
    catalog,
    sliders: new SlidersService({ db, clock, shops }),
    images,
    products,
    listing,
    productSubscriptions,
    search,
    collections: new CollectionsService({ db, clock, shops, products }),
    shopperView: new ShopperViewService({ identity, tracking, products }),
    loyalty,
    loyaltyLedger: ledger,
    loyaltyPublic: new LoyaltyPublicService({ db, clock, shops, identity, profiles, members: loyalty, levels: loyaltyLevels, referrals: loyaltyReferrals }),
    loyaltyUpkeep,
    loyaltyReports: new LoyaltyReportsService({ db, clock, shops, members: loyalty }),
    loyaltyLevels,
    loyaltyReferrals,
    promotions,
    promoCodes,
    certificates,
    loyaltyRewards,
    checkout,
    subscriptions: new SubscriptionsService({ db, clock, shops, promotions, usage: subscriptionUsage }),
    subscriptionMembers: new SubscriptionMembersService({ db, clock, shops, members: loyalty, promotions, orders: checkout }),
    subscriptionUsage,
    clock,
    messagingProviders,
    messagingChannels,
    templateRenderer: renderer,
    mailings: new MailingsService({ db, clock, shops, renderer }),
    transact,
    messageWriter,
    messageDelivery,
    messageHistory: new HistoryService({ db, identity }),
    messageOutcomes,
    wallet,
    webPush,
    webhooks,
    webhookDelivery: new WebhookDelivery({ db, clock, config, jobs, box: messagingBox, topics: webhooks.topics }),
    chains,
    chainTriggers: chainTriggerParts.triggers,
    chainSteps,
    messagingLimits,
    bulkMailings,
    bulkExpansion,
  };
  return { services, mergeParticipants: merges, trackingSubscribers: subscribers, catalogListeners };
}
