import type { Migration } from 'kysely';
import type { Dialect } from '../dialect.js';
import { core } from './0001-core.js';
import { jobs } from './0002-jobs.js';
import { identity } from './0003-identity.js';
import { tracking } from './0004-tracking.js';
import { catalog } from './0005-catalog.js';
import { sliders } from './0006-sliders.js';
import { search } from './0007-search.js';
import { productImages } from './0008-product-images.js';
import { productSubscriptions } from './0009-product-subscriptions.js';
import { audience } from './0010-audience.js';
import { productPictureHash } from './0011-product-picture-hash.js';
import { categoryDiscountLocations } from './0012-category-discount-locations.js';
import { collectionsOrderDetails } from './0014-collections-order-details.js';
import { searchBlank } from './0015-search-blank.js';
import { loyaltyLedger } from './0016-loyalty-ledger.js';
import { loyaltyUpkeep } from './0017-loyalty-upkeep.js';
import { loyaltyLevels } from './0018-loyalty-levels.js';
import { loyaltyAdmin } from './0020-loyalty-admin.js';
import { checkoutOrders } from './0022-checkout-orders.js';
import { subscriptions } from './0024-subscriptions.js';
import { promotions } from './0021-promotions.js';
import { loyaltyEventRewards } from './0019-loyalty-event-rewards.js';
import { messaging } from './0025-messaging.js';
import { wallet } from './0026-wallet.js';
import { messagingTracking } from './0027-messaging-tracking.js';
import { webPush } from './0028-web-push.js';
import { chains } from './0029-chains.js';
import { bulk } from './0030-bulk.js';
import { webhooks } from './0031-webhooks.js';
import { chainTriggers } from './0032-chain-triggers.js';
import { jobsClaimIndex } from './0033-jobs-claim-index.js';
import { auditLog } from './0035-audit-log.js';
import { adminLists } from './0036-admin-lists.js';
import { adminGaps } from './0037-admin-gaps.js';
import { campaigns } from './0039-campaigns.js';
import { messagingStudio } from './0040-messaging-studio.js';
import { deliveryLog } from './0041-delivery-log.js';
import { recommendations } from './0042-recommendations.js';
import { recommendationModels } from './0043-recommendation-models.js';
import { recommendationPredictor } from './0044-recommendation-predictor.js';
import { recommendationFigures } from './0045-recommendation-figures.js';
import { recommendationBuildProgress } from './0046-recommendation-build-progress.js';
import { popups } from './0048-popups.js';
import { nps } from './0049-nps.js';
import { sendMarks } from './0050-send-marks.js';
import { stories } from './0047-stories.js';
import { adminUsers } from './0034-admin-users.js';
import { dashboards } from './0038-dashboards.js';

/**
 * Every migration, in order. Names sort lexically; never rename or edit a landed one.
 * Each entry is a factory so a migration can ask db/dialect.ts for the few
 * dialect-specific column types.
 */
const MIGRATIONS: ReadonlyArray<readonly [string, (dialect: Dialect) => Migration]> = [
  ['0001-core', core],
  ['0002-jobs', jobs],
  ['0003-identity', identity],
  ['0004-tracking', tracking],
  ['0005-catalog', catalog],
  ['0006-sliders', sliders],
  ['0007-search', search],
  ['0008-product-images', productImages],
  ['0009-product-subscriptions', productSubscriptions],
  ['0010-audience', audience],
  ['0011-product-picture-hash', productPictureHash],
  ['0012-category-discount-locations', categoryDiscountLocations],
  ['0014-collections-order-details', collectionsOrderDetails],
  ['0015-search-blank', searchBlank],
  ['0016-loyalty-ledger', loyaltyLedger],
  ['0017-loyalty-upkeep', loyaltyUpkeep],
  ['0018-loyalty-levels', loyaltyLevels],
  ['0019-loyalty-event-rewards', loyaltyEventRewards],
  ['0020-loyalty-admin', loyaltyAdmin],
  ['0021-promotions', promotions],
  ['0022-checkout-orders', checkoutOrders],
  ['0024-subscriptions', subscriptions],
  ['0025-messaging', messaging],
  ['0026-wallet', wallet],
  ['0027-messaging-tracking', messagingTracking],
  ['0028-web-push', webPush],
  ['0029-chains', chains],
  ['0030-bulk', bulk],
  ['0031-webhooks', webhooks],
  ['0032-chain-triggers', chainTriggers],
  ['0033-jobs-claim-index', jobsClaimIndex],
  ['0035-audit-log', auditLog],
  ['0036-admin-lists', adminLists],
  ['0034-admin-users', adminUsers],
  ['0037-admin-gaps', adminGaps],
  ['0038-dashboards', dashboards],
  ['0039-campaigns', campaigns],
  ['0040-messaging-studio', messagingStudio],
  ['0041-delivery-log', deliveryLog],
  ['0042-recommendations', recommendations],
  ['0043-recommendation-models', recommendationModels],
  ['0044-recommendation-predictor', recommendationPredictor],
  ['0045-recommendation-figures', recommendationFigures],
  ['0046-recommendation-build-progress', recommendationBuildProgress],
  ['0047-stories', stories],
  ['0048-popups', popups],
  ['0049-nps', nps],
  ['0050-send-marks', sendMarks],
];

export function listMigrations(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(MIGRATIONS.map(([name, make]) => [name, make(dialect)]));
}
