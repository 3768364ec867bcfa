import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { ShopsService } from '../shops/index.js';
import { CertificateHolds } from './certificate-holds.js';
import { CertificatesService } from './certificates.service.js';
import { PromoCodeHolds } from './promo-code-holds.js';
import { PromoCodesService } from './promo-codes.service.js';
import { PromotionsService } from './promotions.service.js';

export interface PromotionsServices {
  /** Promotions of the admin API and the checkout's loader of active ones (docs/promotions.md). */
  readonly promotions: PromotionsService;
  /** Promo codes, their generation, and the use blocks the checkout holds. */
  readonly promoCodes: PromoCodesService;
  /** Gift certificates, their pools, and the amounts the checkout holds. */
  readonly certificates: CertificatesService;
}

export interface PromotionsModule {
  readonly services: PromotionsServices;
  /** What an admin change drops (docs/settings-caches.md). */
  readonly settingsListeners: readonly (() => void)[];
  /** The promo codes' use blocks an order holds (a checkout hold participant). */
  readonly promoCodeHolds: PromoCodeHolds;
  /** The certificates' amounts an order holds (a checkout hold participant). */
  readonly certificateHolds: CertificateHolds;
}

export function createPromotionsModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
}): PromotionsModule {
  const promotions = new PromotionsService(deps);
  return {
    services: { promotions, promoCodes: new PromoCodesService(deps), certificates: new CertificatesService(deps) },
    settingsListeners: [() => promotions.forgetCachedSettings()],
    promoCodeHolds: new PromoCodeHolds(deps),
    certificateHolds: new CertificateHolds(deps),
  };
}
