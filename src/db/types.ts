/**
 * Kysely table types, one file per area under db/tables/; `Database` names every table.
 * Column conventions are in db/dialect.ts. Every table that holds shop data leads its
 * primary key with shop_id.
 */

import type { SettingsTable, ShopsTable, CustomEventCodesTable, JobsTable } from './tables/system.js';
import type { ProfilesTable, DevicesTable, ProfileMergesTable } from './tables/identity.js';
import type {
  TrackingSequencesTable,
  SessionsTable,
  EventsTable,
  ProfileListsTable,
  OrdersTable,
  ProductCountersTable,
} from './tables/tracking.js';
import type {
  CatalogsTable,
  FeedImportsTable,
  CatalogCategoryIdsTable,
  CatalogCategoriesTable,
  CatalogLocationsTable,
  CatalogProductCategoriesTable,
  CatalogProductsTable,
} from './tables/catalog.js';
import type {
  SlidersTable,
  ProductCollectionsTable,
  ProductImagesTable,
  ProductSubscriptionsTable,
  ProductAlertsTable,
  SearchQueriesTable,
} from './tables/storefront.js';
import type {
  AudienceSequencesTable,
  SegmentsTable,
  SegmentMembersTable,
  CustomPropertiesTable,
  AudienceProfilesTable,
  ProfilePushTokensTable,
  AudienceImportsTable,
  AudienceImportChunksTable,
} from './tables/audience.js';
import type {
  LoyaltySettingsTable,
  LoyaltySequencesTable,
  LoyaltyMembersTable,
  LoyaltyTransactionsTable,
  LoyaltyLotsTable,
  LoyaltyAllocationsTable,
  LoyaltyHoldsTable,
  LoyaltyUpkeepTable,
} from './tables/loyalty.js';
import type {
  LoyaltyLevelLaddersTable,
  LoyaltyLevelsTable,
  LoyaltyPurchasesTable,
  LoyaltyReferralProgramsTable,
  LoyaltyReferralCodesTable,
  LoyaltyReferralsTable,
} from './tables/loyalty-levels.js';
import type {
  PromotionSequencesTable,
  PromotionsTable,
  PromoCodesTable,
  PromoCodeUsesTable,
  PromoCodeMembersTable,
  CertificatePoolsTable,
  CertificatesTable,
  CertificateHoldsTable,
} from './tables/promotions.js';
import type { LoyaltyEventRewardsTable, LoyaltyEventRewardedTable } from './tables/loyalty-rewards.js';
import type { CheckoutOrdersTable } from './tables/checkout.js';
import type {
  SubscriptionsTable,
  SubscriptionPlansTable,
  SubscriptionMembersTable,
  SubscriptionUsageTable,
  SubscriptionHoldsTable,
} from './tables/subscriptions.js';
import type {
  MessagingSequencesTable,
  MessagingChannelsTable,
  MessagingMailingsTable,
  MessagingMessagesTable,
  MessagingDeliveriesTable,
  MessagingDeadAddressesTable,
  MessagingMessageTemplatesTable,
  MessagingTestSendsTable,
  MessagingChannelStatsTable,
  MessagingChannelErrorsTable,
  MessagingChannelTestsTable,
  MessagingDeliveryAttemptsTable,
  MessagingDeliveryHtmlTable,
} from './tables/messaging.js';
import type { WalletPassesTable, WalletRegistrationsTable } from './tables/wallet.js';
import type { WebPushSubscriptionsTable } from './tables/web-push.js';
import type { WebhookCountersTable, WebhookDeliveriesTable, WebhookEndpointsTable } from './tables/webhooks.js';
import type { ChainsTable, ChainVersionsTable, ChainRunsTable, ChainEntriesTable } from './tables/chains.js';
import type { BulkMailingsTable, BulkRecipientsTable, MessagingLimitsTable, BulkCapCountersTable } from './tables/bulk.js';
import type { ChainListWatchesTable } from './tables/chain-triggers.js';
import type { AuditLogTable } from './tables/audit.js';
import type { DashboardActiveTable, DashboardBackfillTable, DashboardDaysTable, DashboardFunnelsTable } from './tables/dashboards.js';
import type {
  RecommendationBlocksTable,
  RecommendationBuildsTable,
  RecommendationListsTable,
  RecommendationNeighboursTable,
  RecommendationPredictorsTable,
  RecommendationSequencesTable,
} from './tables/recommendations.js';
import type { RecommendationBlockDaysTable, RecommendationBlockTouchesTable } from './tables/recommendation-figures.js';
import type {
  StoriesTable,
  StoryPendingClicksTable,
  StorySequencesTable,
  StorySetsTable,
  StorySlidesTable,
  StoryTouchesTable,
} from './tables/stories.js';
import type { AdminUsersTable, AdminSessionsTable, AdminInvitationsTable, AdminApiTokensTable } from './tables/admin-users.js';
import type { PopupDeviceMarksTable, PopupOffersTable, PopupSequencesTable, PopupsTable } from './tables/popups.js';
import type { NpsCategoriesTable, NpsChannelsTable, NpsReviewSequencesTable, NpsReviewsTable } from './tables/nps.js';

export type * from './tables/system.js';
export type * from './tables/identity.js';
export type * from './tables/tracking.js';
export type * from './tables/catalog.js';
export type * from './tables/storefront.js';
export type * from './tables/audience.js';
export type * from './tables/loyalty.js';
export type * from './tables/loyalty-levels.js';
export type * from './tables/promotions.js';
export type * from './tables/loyalty-rewards.js';
export type * from './tables/checkout.js';
export type * from './tables/subscriptions.js';
export type * from './tables/messaging.js';
export type * from './tables/wallet.js';
export type * from './tables/web-push.js';
export type * from './tables/webhooks.js';
export type * from './tables/chains.js';
export type * from './tables/bulk.js';
export type * from './tables/chain-triggers.js';
export type * from './tables/audit.js';
export type * from './tables/recommendations.js';
export type * from './tables/recommendation-figures.js';
export type * from './tables/admin-users.js';
export type * from './tables/popups.js';
export type * from './tables/nps.js';
export type * from './tables/stories.js';

export interface Database {
  settings: SettingsTable;
  shops: ShopsTable;
  custom_event_codes: CustomEventCodesTable;
  jobs: JobsTable;
  profiles: ProfilesTable;
  devices: DevicesTable;
  profile_merges: ProfileMergesTable;
  tracking_sequences: TrackingSequencesTable;
  sessions: SessionsTable;
  events: EventsTable;
  profile_lists: ProfileListsTable;
  orders: OrdersTable;
  product_counters: ProductCountersTable;
  catalogs: CatalogsTable;
  feed_imports: FeedImportsTable;
  catalog_category_ids: CatalogCategoryIdsTable;
  catalog_product_categories: CatalogProductCategoriesTable;
  catalog_categories: CatalogCategoriesTable;
  catalog_locations: CatalogLocationsTable;
  catalog_products: CatalogProductsTable;
  sliders: SlidersTable;
  product_collections: ProductCollectionsTable;
  product_images: ProductImagesTable;
  product_subscriptions: ProductSubscriptionsTable;
  product_alerts: ProductAlertsTable;
  search_queries: SearchQueriesTable;
  audience_sequences: AudienceSequencesTable;
  segments: SegmentsTable;
  segment_members: SegmentMembersTable;
  custom_properties: CustomPropertiesTable;
  audience_profiles: AudienceProfilesTable;
  profile_push_tokens: ProfilePushTokensTable;
  audience_imports: AudienceImportsTable;
  audience_import_chunks: AudienceImportChunksTable;
  loyalty_settings: LoyaltySettingsTable;
  loyalty_sequences: LoyaltySequencesTable;
  loyalty_members: LoyaltyMembersTable;
  loyalty_transactions: LoyaltyTransactionsTable;
  loyalty_lots: LoyaltyLotsTable;
  loyalty_allocations: LoyaltyAllocationsTable;
  loyalty_holds: LoyaltyHoldsTable;
  loyalty_upkeep: LoyaltyUpkeepTable;
  loyalty_level_ladders: LoyaltyLevelLaddersTable;
  loyalty_levels: LoyaltyLevelsTable;
  loyalty_purchases: LoyaltyPurchasesTable;
  loyalty_referral_programs: LoyaltyReferralProgramsTable;
  loyalty_referral_codes: LoyaltyReferralCodesTable;
  loyalty_referrals: LoyaltyReferralsTable;
  promotion_sequences: PromotionSequencesTable;
  promotions: PromotionsTable;
  promo_codes: PromoCodesTable;
  promo_code_uses: PromoCodeUsesTable;
  promo_code_members: PromoCodeMembersTable;
  certificate_pools: CertificatePoolsTable;
  certificates: CertificatesTable;
  certificate_holds: CertificateHoldsTable;
  loyalty_event_rewards: LoyaltyEventRewardsTable;
  loyalty_event_rewarded: LoyaltyEventRewardedTable;
  checkout_orders: CheckoutOrdersTable;
  subscriptions: SubscriptionsTable;
  subscription_plans: SubscriptionPlansTable;
  subscription_members: SubscriptionMembersTable;
  subscription_usage: SubscriptionUsageTable;
  subscription_holds: SubscriptionHoldsTable;
  messaging_sequences: MessagingSequencesTable;
  messaging_channels: MessagingChannelsTable;
  messaging_mailings: MessagingMailingsTable;
  messaging_messages: MessagingMessagesTable;
  messaging_deliveries: MessagingDeliveriesTable;
  messaging_dead_addresses: MessagingDeadAddressesTable;
  messaging_message_templates: MessagingMessageTemplatesTable;
  messaging_test_sends: MessagingTestSendsTable;
  messaging_channel_stats: MessagingChannelStatsTable;
  messaging_channel_errors: MessagingChannelErrorsTable;
  messaging_channel_tests: MessagingChannelTestsTable;
  messaging_delivery_attempts: MessagingDeliveryAttemptsTable;
  messaging_delivery_html: MessagingDeliveryHtmlTable;
  wallet_passes: WalletPassesTable;
  wallet_registrations: WalletRegistrationsTable;
  web_push_subscriptions: WebPushSubscriptionsTable;
  webhook_counters: WebhookCountersTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  chains: ChainsTable;
  chain_versions: ChainVersionsTable;
  chain_runs: ChainRunsTable;
  chain_entries: ChainEntriesTable;
  bulk_mailings: BulkMailingsTable;
  bulk_recipients: BulkRecipientsTable;
  messaging_limits: MessagingLimitsTable;
  bulk_cap_counters: BulkCapCountersTable;
  chain_list_watches: ChainListWatchesTable;
  audit_log: AuditLogTable;
  dashboard_days: DashboardDaysTable;
  dashboard_active: DashboardActiveTable;
  dashboard_funnels: DashboardFunnelsTable;
  dashboard_backfill: DashboardBackfillTable;
  admin_users: AdminUsersTable;
  admin_sessions: AdminSessionsTable;
  admin_invitations: AdminInvitationsTable;
  admin_api_tokens: AdminApiTokensTable;
  recommendation_sequences: RecommendationSequencesTable;
  recommendation_blocks: RecommendationBlocksTable;
  recommendation_neighbours: RecommendationNeighboursTable;
  recommendation_lists: RecommendationListsTable;
  recommendation_builds: RecommendationBuildsTable;
  recommendation_predictors: RecommendationPredictorsTable;
  recommendation_block_days: RecommendationBlockDaysTable;
  recommendation_block_touches: RecommendationBlockTouchesTable;
  popup_sequences: PopupSequencesTable;
  popups: PopupsTable;
  popup_shows: PopupDeviceMarksTable;
  popup_clicks: PopupDeviceMarksTable;
  popup_offers: PopupOffersTable;
  nps_channels: NpsChannelsTable;
  nps_categories: NpsCategoriesTable;
  nps_review_sequences: NpsReviewSequencesTable;
  nps_reviews: NpsReviewsTable;
  story_sequences: StorySequencesTable;
  story_sets: StorySetsTable;
  stories: StoriesTable;
  story_slides: StorySlidesTable;
  story_views: StoryTouchesTable;
  story_clicks: StoryTouchesTable;
  story_pending_clicks: StoryPendingClicksTable;
}
