import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Late } from '../../late.js';
import { AdminTokenService } from './admin-token.service.js';
import { SettingsNotifications } from './settings-notifications.js';
import { SettingsVersion, type SettingsListener } from './settings-version.js';

export interface SystemServices {
  /** Tells the caches of admin settings of every thread and process of an admin change (docs/settings-caches.md). */
  readonly settings: SettingsVersion;
  /** Hears the changes of the other processes on PostgreSQL; started by the HTTP thread of `patron serve` only (main.ts). */
  readonly settingsNotifications: SettingsNotifications;
  readonly adminToken: AdminTokenService;
}

export interface SystemModule {
  readonly services: SystemServices;
}

export function createSystemModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly config: Pick<Config, 'adminToken' | 'databaseListenUrl'>;
  /** Every module's caches of admin settings, built after this one (src/services.ts binds them). */
  readonly settingsListeners: Late<readonly SettingsListener[]>;
}): SystemModule {
  const { db, clock } = deps;
  const settings = new SettingsVersion({ db, clock, listeners: deps.settingsListeners });
  return {
    services: {
      settings,
      settingsNotifications: new SettingsNotifications({ settings, clock, url: deps.config.databaseListenUrl }),
      adminToken: new AdminTokenService({ db, clock, envToken: deps.config.adminToken }),
    },
  };
}
