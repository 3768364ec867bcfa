import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { DbHandle } from './db/create-db.js';
import type { JobHandlers } from './jobs/job-handlers.js';
import { JobQueue } from './jobs/queue.js';
import { Late } from './late.js';
import { createAuditModule, type AuditServices } from './modules/audit/module.js';
import { createAdminUsersModule, type AdminUsersServices } from './modules/admin-users/module.js';
import { createAudienceModule, type AudienceServices, type CheckoutOrders } from './modules/audience/module.js';
import type { SegmentEntryListener } from './modules/audience/segments.service.js';
import { createBulkModule, type BulkServices } from './modules/bulk/module.js';
import { createCatalogModule, type CatalogServices, type ProductTriggerSource } from './modules/catalog/module.js';
import type { CatalogLandedListener } from './modules/catalog/catalog.types.js';
import type { ChainStarter } from './modules/chains/chain-starter.js';
import { createChainsModule, type ChainsServices } from './modules/chains/module.js';
import type { CheckoutHoldParticipant } from './modules/checkout/checkout-holds.js';
import { createCheckoutModule, type CheckoutServices } from './modules/checkout/module.js';
import type { Liabilities } from './modules/dashboards/dashboards.service.js';
import { createDashboardsModule, type DashboardsServices } from './modules/dashboards/module.js';
import { createCollectionsModule, type CollectionsServices } from './modules/collections/module.js';
import type { MergeParticipant } from './modules/identity/identity.service.js';
import { createIdentityModule, type IdentityServices } from './modules/identity/module.js';
import { createImagesModule, type ImagesServices } from './modules/images/module.js';
import { createLoyaltyModule, type LoyaltyServices } from './modules/loyalty/module.js';
import type { SendGate } from './modules/messaging/delivery.service.js';
import { createMessagingModule, type MessageTemplateSources, type MessagingServices } from './modules/messaging/module.js';
import { SecretBox } from './modules/messaging/secret-box.js';
import type { AlertsWrittenListener } from './modules/product-subscriptions/product-subscriptions.service.js';
import { createProductSubscriptionsModule, type ProductSubscriptionsServices } from './modules/product-subscriptions/module.js';
import { createProfileViewModule, type ProfileViewServices } from './modules/profile-view/module.js';
import { createPromotionsModule, type PromotionsServices } from './modules/promotions/module.js';
import { createSearchModule, type SearchServices } from './modules/search/module.js';
import { createShopperViewModule, type ShopperViewServices } from './modules/shopper-view/module.js';
import { createShopsModule, type ShopsServices } from './modules/shops/module.js';
import { createRecommendationsModule, type RecommendationsServices } from './modules/recommendations/module.js';
import { createPopupsModule, type PopupsServices } from './modules/popups/module.js';
import { createNpsModule, type NpsServices } from './modules/nps/index.js';
import { createSlidersModule, type SlidersServices } from './modules/sliders/module.js';
import { createStoriesModule, type StoriesServices } from './modules/stories/module.js';
import { createSubscriptionsModule, type SubscriptionsServices } from './modules/subscriptions/module.js';
import type { SubscriptionOrders } from './modules/subscriptions/subscriptions.types.js';
import { createSystemModule, type SystemServices } from './modules/system/module.js';
import type { SettingsListener } from './modules/system/settings-version.js';
import { createTrackingModule, type TrackingServices } from './modules/tracking/module.js';
import type { TrackedBatchListener, TrackingSubscriber, ViewAttributionSource } from './modules/tracking/tracking.types.js';
import { createWebhooksModule, type WebhooksServices } from './modules/webhooks/module.js';

/**
 * Every service, built once per process from explicit dependencies: what each module's
 * factory returns (its module.ts says what each service is), under the names the scopes
 * and the tests read.
 */
export interface Services
  extends SystemServices,
    ShopsServices,
    IdentityServices,
    DashboardsServices,
    TrackingServices,
    AudienceServices,
    ImagesServices,
    CatalogServices,
    ProductSubscriptionsServices,
    SearchServices,
    CollectionsServices,
    SlidersServices,
    RecommendationsServices,
    ShopperViewServices,
    ProfileViewServices,
    LoyaltyServices,
    PromotionsServices,
    SubscriptionsServices,
    CheckoutServices,
    WebhooksServices,
    MessagingServices,
    ChainsServices,
    BulkServices,
    AuditServices,
    AdminUsersServices,
    PopupsServices,
    NpsServices,
    StoriesServices {
  /** The durable job queue: services enqueue; the process's JobRunner (if any) runs. */
  readonly jobs: JobQueue;
  /** The clock every service was built with (the demo's dates: process/demo-subscription.ts). */
  readonly clock: Clock;
  /** Every job's handler, as the modules return them: the process's JobRunner registers them (process/job-runner.ts). */
  readonly jobHandlers: JobHandlers;
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
  /** In the order the checkout places, captures and releases them. */
  readonly checkoutHolds: readonly CheckoutHoldParticipant[];
}

/** Every service, built once per process from explicit dependencies. */
export function createServices(deps: ServicesDeps): Services {
  return compose(deps).services;
}

/**
 * The composition root: the modules, one call each, in dependency order; then what a module
 * needs of modules built after it, bound once they exist (late.ts); then the shared flows'
 * participants, as one ordered list each. Adding a module is its folder's module.ts, one
 * call here, and its parts in the lists it takes part in.
 */
export function compose(deps: ServicesDeps): Composition {
  const { config, db, clock, probes = {} } = deps;
  // What a module needs of modules built after it, each the interface the lower module owns.
  const late = {
    settingsListeners: new Late<readonly SettingsListener[]>('the caches of admin settings'),
    mergeParticipants: Late.namedList<MergeParticipant>('merge participant'),
    trackingSubscribers: Late.namedList<TrackingSubscriber>('tracking subscriber'),
    trackedBatchListeners: Late.namedList<TrackedBatchListener>('tracked batch listener'),
    viewAttributions: Late.namedList<ViewAttributionSource>('view attribution source'),
    segmentEntryListeners: new Late<readonly SegmentEntryListener[]>('the segment entry listeners'),
    checkoutOrders: new Late<CheckoutOrders>('the checkout orders'),
    catalogListeners: Late.namedList<CatalogLandedListener>('catalog landed listener'),
    productTriggers: new Late<ProductTriggerSource>('the product subscriptions'),
    productAlertListeners: new Late<readonly AlertsWrittenListener[]>('the product alert listeners'),
    subscriptionOrders: new Late<SubscriptionOrders>('the subscription orders'),
    messageTemplates: new Late<MessageTemplateSources>('the chain and bulk templates'),
    sendGate: new Late<SendGate>('the send gate'),
    liabilities: new Late<(shopId: string) => Promise<Liabilities>>('the loyalty liabilities'),
  };
  const jobs = new JobQueue({ db, clock });
  // Seals the messaging channels' secrets and the webhook endpoints' at rest.
  const box = new SecretBox({ secretKey: config.secretKey, dataDir: config.dataDir });
  const core = { config, db, clock, jobs };

  const system = createSystemModule({ ...core, settingsListeners: late.settingsListeners });
  const shops = createShopsModule(core);
  // Built early and on the core alone: any module that records its own events (sign-ins) may take it.
  const audit = createAuditModule(core);
  const identity = createIdentityModule({ ...core, mergeParticipants: late.mergeParticipants });
  // What every module below may use; each factory's deps say what it takes.
  const base = { ...core, ...system.services, ...shops.services, ...identity.services };
  // The daily rollups, written by tracking, loyalty and messaging in their own transactions.
  const dashboards = createDashboardsModule({ ...base, liabilities: late.liabilities });
  const rollups = config.dashboardRollups ? { rollups: dashboards.services.dashboardRollups } : {};
  const tracking = createTrackingModule({
    ...base,
    ...rollups,
    trackingSubscribers: late.trackingSubscribers,
    batchListeners: late.trackedBatchListeners,
    viewAttributions: late.viewAttributions,
  });
  const audience = createAudienceModule({
    ...base,
    ...tracking.services,
    checkoutOrders: late.checkoutOrders,
    segmentEntryListeners: late.segmentEntryListeners,
  });
  const images = createImagesModule(base);
  const catalog = createCatalogModule({
    ...base,
    ...tracking.services,
    ...images.services,
    productTriggers: late.productTriggers,
    catalogListeners: late.catalogListeners,
  });
  const productSubscriptions = createProductSubscriptionsModule({
    ...base,
    ...catalog.services,
    productAlertListeners: late.productAlertListeners,
  });
  const search = createSearchModule({ ...base, ...catalog.services });
  const collections = createCollectionsModule({ ...base, ...catalog.services });
  const sliders = createSlidersModule(base);
  const recommendations = createRecommendationsModule({
    ...base,
    ...tracking.services,
    ...catalog.services,
    productFacts: catalog.productFacts,
    dashboardRollups: dashboards.services.dashboardRollups,
  });
  const nps = createNpsModule(base);
  const shopperView = createShopperViewModule({ ...base, ...tracking.services, ...catalog.services });
  const loyalty = createLoyaltyModule({ ...base, ...audience.services, ...rollups });
  const promotions = createPromotionsModule(base);
  const subscriptions = createSubscriptionsModule({
    ...base,
    ...promotions.services,
    ...loyalty.services,
    subscriptionOrders: late.subscriptionOrders,
  });
  // What an order holds, placed at apply, captured at confirm and released at cancel, in the
  // order in which they lock their rows (docs/checkout.md "Orders"): the checkout refuses a
  // list out of that order. A test's probes come last.
  const checkoutHolds = [
    promotions.promoCodeHolds,
    promotions.certificateHolds,
    loyalty.bonusHolds,
    subscriptions.benefitHolds,
    ...(probes.checkoutHolds ?? []),
  ];
  const checkout = createCheckoutModule({
    ...base,
    ...loyalty.services,
    ...promotions.services,
    ...subscriptions.services,
    productFacts: catalog.productFacts,
    holds: checkoutHolds,
  });
  const webhooks = createWebhooksModule({ ...base, box });
  const messaging = createMessagingModule({
    ...base,
    ...audience.services,
    ...loyalty.services,
    subscriptionFlags: audience.subscriptionFlags,
    box,
    outcomeHook: webhooks.outcomeHook,
    ...rollups,
    messageTemplates: late.messageTemplates,
    sendGate: late.sendGate,
  });
  const profileView = createProfileViewModule({
    ...base,
    ...tracking.services,
    ...audience.services,
    ...loyalty.services,
    ...messaging.services,
  });
  const chains = createChainsModule({
    ...base,
    ...tracking.services,
    ...audience.services,
    ...catalog.services,
    ...productSubscriptions.services,
    ...loyalty.services,
    ...messaging.services,
    triggerStarter: probes.triggerStarter,
  });
  const bulk = createBulkModule({ ...base, ...audience.services, ...messaging.services });
  const adminUsers = createAdminUsersModule(base);
  const popups = createPopupsModule({ ...base, ...audience.services });
  const stories = createStoriesModule({ ...base, ...catalog.services });

  // What the modules above needed of those built after them.
  late.checkoutOrders.bind(checkout.services.checkout);
  late.subscriptionOrders.bind(checkout.services.checkout);
  late.productTriggers.bind(productSubscriptions.services.productSubscriptions);
  late.productAlertListeners.bind([chains.productAlertListener]);
  late.segmentEntryListeners.bind([chains.segmentEntryListener]);
  late.messageTemplates.bind({ chain: chains.templateSource, bulk: bulk.templateSource });
  late.sendGate.bind(bulk.sendGate);
  late.liabilities.bind((shopId) => loyalty.services.loyaltyReports.liabilities(shopId));
  // What each tracking batch also counts in its transaction: the recommendation blocks' figures.
  late.trackedBatchListeners.bind([recommendations.batchListener]);
  // Who may attribute a product view that names no recommended_by: the stories' last click.
  late.viewAttributions.bind([stories.viewAttribution]);
  // What follows a catalog landing, in its transaction: the pictures' download, the alerts it fires.
  const catalogListeners = [images.catalogListener, productSubscriptions.catalogListener, ...(probes.catalogListeners ?? [])];
  late.catalogListeners.bind(catalogListeners);
  // What a merge moves, in this order: the loyalty ledger's participant before those of
  // referrals, levels and rewards, which find the surviving profile a member by then.
  const mergeParticipants = [
    ...tracking.mergeParticipants,
    ...audience.mergeParticipants,
    ...productSubscriptions.mergeParticipants,
    ...loyalty.mergeParticipants,
    ...messaging.mergeParticipants,
    ...chains.mergeParticipants,
    ...(probes.mergeParticipants ?? []),
  ];
  late.mergeParticipants.bind(mergeParticipants);
  // Who hears tracking's events: each event a subscriber accepts gets its job, in this order.
  const trackingSubscribers = [
    ...search.trackingSubscribers,
    ...loyalty.trackingSubscribers,
    ...checkout.trackingSubscribers,
    ...webhooks.trackingSubscribers,
    ...messaging.trackingSubscribers,
    ...chains.trackingSubscribers,
    ...(probes.trackingSubscribers ?? []),
  ];
  late.trackingSubscribers.bind(trackingSubscribers);
  // Every cache of admin settings, dropped when an admin changes anything (docs/settings-caches.md).
  late.settingsListeners.bind([
    ...webhooks.settingsListeners,
    ...shops.settingsListeners,
    ...loyalty.settingsListeners,
    ...promotions.settingsListeners,
    ...subscriptions.settingsListeners,
    ...messaging.settingsListeners,
    ...chains.settingsListeners,
    ...bulk.settingsListeners,
    ...popups.settingsListeners,
  ]);

  const jobHandlers: JobHandlers = {
    ...tracking.jobs,
    ...images.jobs,
    ...catalog.jobs,
    ...audience.jobs,
    ...loyalty.jobs,
    ...messaging.jobs,
    ...webhooks.jobs,
    ...chains.jobs,
    ...bulk.jobs,
    ...audit.jobs,
    ...dashboards.jobs,
    ...recommendations.jobs,
  };
  const services: Services = {
    ...system.services,
    ...shops.services,
    ...identity.services,
    ...dashboards.services,
    ...tracking.services,
    ...audience.services,
    ...images.services,
    ...catalog.services,
    ...productSubscriptions.services,
    ...search.services,
    ...collections.services,
    ...sliders.services,
    ...recommendations.services,
    ...nps.services,
    ...shopperView.services,
    ...profileView.services,
    ...loyalty.services,
    ...promotions.services,
    ...subscriptions.services,
    ...checkout.services,
    ...webhooks.services,
    ...messaging.services,
    ...chains.services,
    ...bulk.services,
    ...audit.services,
    ...adminUsers.services,
    ...popups.services,
    ...stories.services,
    jobs,
    clock,
    jobHandlers,
  };
  return { services, mergeParticipants, trackingSubscribers, catalogListeners, checkoutHolds };
}
