import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { ShopsService } from './shops.service.js';

export interface ShopsServices {
  readonly shops: ShopsService;
}

export interface ShopsModule {
  readonly services: ShopsServices;
  /** What an admin change drops (docs/settings-caches.md). */
  readonly settingsListeners: readonly (() => void)[];
}

export function createShopsModule(deps: { readonly db: DbHandle; readonly clock: Clock }): ShopsModule {
  const shops = new ShopsService(deps);
  return { services: { shops }, settingsListeners: [() => shops.forgetCachedSettings()] };
}
