import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { ShopsService } from '../shops/index.js';
import { AccountsService } from './accounts.service.js';
import { INSECURE_TEST_PASSWORD_PARAMETERS, PASSWORD_PARAMETERS } from './passwords.js';
import { SessionsService } from './sessions.service.js';

export interface AdminUsersServices {
  /** The admin UI's users, roles, invitations and API tokens. */
  readonly adminAccounts: AccountsService;
  /** Sign-in, sessions, invitation links used, API tokens checked. */
  readonly adminSessions: SessionsService;
}

export interface AdminUsersModule {
  readonly services: AdminUsersServices;
}

export function createAdminUsersModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly config: Pick<Config, 'adminSessions' | 'insecureTestPasswordHashing'>;
  readonly shops: ShopsService;
}): AdminUsersModule {
  const { db, clock } = deps;
  const passwords = deps.config.insecureTestPasswordHashing ? INSECURE_TEST_PASSWORD_PARAMETERS : PASSWORD_PARAMETERS;
  return {
    services: {
      adminAccounts: new AccountsService({ db, clock, shops: deps.shops, passwords }),
      adminSessions: new SessionsService({ db, clock, lifetimes: deps.config.adminSessions, passwords }),
    },
  };
}
