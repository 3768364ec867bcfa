import { PopupOffersService, type OffersDeps } from './offers.service.js';
import { PopupsService } from './popups.service.js';

export interface PopupsServices {
  /** The admin API's popups with their figures (admin-api.md "Popups"). */
  readonly popups: PopupsService;
  /** The popup a public answer carries, and POST /popup/showed and /popup/clicked (docs/popups.md). */
  readonly popupOffers: PopupOffersService;
}

export interface PopupsModule {
  readonly services: PopupsServices;
  /** Drops each process's cache of active popups on an admin change (docs/settings-caches.md). */
  readonly settingsListeners: readonly (() => void)[];
}

export function createPopupsModule(deps: OffersDeps): PopupsModule {
  const offers = new PopupOffersService(deps);
  return {
    services: { popups: new PopupsService(deps), popupOffers: offers },
    settingsListeners: [() => offers.forgetCachedSettings()],
  };
}
