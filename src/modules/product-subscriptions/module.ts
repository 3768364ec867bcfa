import type { Late } from '../../late.js';
import type { CatalogLandedListener } from '../catalog/index.js';
import type { MergeParticipant } from '../identity/index.js';
import { ProductSubscriptionsService, type AlertsWrittenListener, type ProductSubscriptionsDeps } from './product-subscriptions.service.js';

export interface ProductSubscriptionsServices {
  /** Back-in-stock and price-drop subscriptions; alerts recorded when an import lands. */
  readonly productSubscriptions: ProductSubscriptionsService;
}

export interface ProductSubscriptionsModule {
  readonly services: ProductSubscriptionsServices;
  readonly mergeParticipants: readonly MergeParticipant[];
  /** The catalog's landed listener: a landing records the alerts it fires. */
  readonly catalogListener: CatalogLandedListener;
}

export function createProductSubscriptionsModule(
  deps: Omit<ProductSubscriptionsDeps, 'alertListeners'> & {
    /** Who hears of landings that wrote alerts (the chain triggers, built after this module). */
    readonly productAlertListeners: Late<readonly AlertsWrittenListener[]>;
  },
): ProductSubscriptionsModule {
  const productSubscriptions = new ProductSubscriptionsService({ ...deps, alertListeners: deps.productAlertListeners });
  return {
    services: { productSubscriptions },
    mergeParticipants: [productSubscriptions.mergeParticipant()],
    catalogListener: productSubscriptions.landedListener(),
  };
}
