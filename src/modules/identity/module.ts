import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Late } from '../../late.js';
import { IdentityService, type MergeParticipant } from './identity.service.js';
import { ProfileDirectory } from './profile-directory.js';

export interface IdentityServices {
  /** Profiles, devices and identifiers; the composition root hands it the modules' merge participants. */
  readonly identity: IdentityService;
  /** The customers as the admin UI finds them: by any identifier, newest first. */
  readonly profileDirectory: ProfileDirectory;
}

export interface IdentityModule {
  readonly services: IdentityServices;
}

export function createIdentityModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  /** The modules' merge participants, all built after identity (src/services.ts binds them in order). */
  readonly mergeParticipants: Late<readonly MergeParticipant[]>;
}): IdentityModule {
  return { services: { identity: new IdentityService(deps), profileDirectory: new ProfileDirectory(deps) } };
}
