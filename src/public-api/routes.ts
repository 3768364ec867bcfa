import { audienceRoutes } from './audience/audience.routes.js';
import { bonusesRoutes } from './loyalty/bonuses.routes.js';
import { checkoutRoutes } from './checkout/checkout.routes.js';
import { loyaltyRoutes } from './loyalty/loyalty.routes.js';
import { messagingRoutes } from './messaging/messaging.routes.js';
import { listingRoutes } from './catalog/listing.routes.js';
import { productRoutes } from './catalog/products.routes.js';
import { predictRoutes } from './predict/predict.routes.js';
import { recommendRoutes } from './recommend/recommend.routes.js';
import { npsRoutes } from './nps/nps.routes.js';
import { profileRoutes } from './profile/profile.routes.js';
import { subscriptionRoutes } from './catalog/subscriptions.routes.js';
import { searchRoutes } from './search/search.routes.js';
import { shopperRoutes } from './shopper/shopper.routes.js';
import { sliderRoutes } from './sliders/slider.routes.js';
import { paidSubscriptionRoutes } from './loyalty/subscriptions.routes.js';
import { trackingRoutes } from './tracking/tracking.routes.js';
import { webPushRoutes } from './messaging/web-push.routes.js';
import { trackRoutes } from './messaging/track.routes.js';
import { popupRoutes } from './popup/popup.routes.js';
import { storiesRoutes } from './stories/stories.routes.js';
import type { PublicRouteModule } from './types.js';

/**
 * The route modules of the public API (interface.md), registered by app.ts through
 * publicApiPlugin. Each module declares `config.envelope` and `config.auth` per route.
 */
export const PUBLIC_ROUTES: readonly PublicRouteModule[] = [
  trackingRoutes,
  sliderRoutes,
  productRoutes,
  subscriptionRoutes,
  searchRoutes,
  listingRoutes,
  audienceRoutes,
  profileRoutes,
  predictRoutes,
  shopperRoutes,
  loyaltyRoutes,
  bonusesRoutes,
  checkoutRoutes,
  paidSubscriptionRoutes,
  messagingRoutes,
  webPushRoutes,
  trackRoutes,
  recommendRoutes,
  popupRoutes,
  npsRoutes,
  storiesRoutes,
];
