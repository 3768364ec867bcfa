import type { IdentityService, ProfileDirectory } from '../identity/index.js';
import type { LoyaltyService } from '../loyalty/index.js';
import type { HistoryService } from '../messaging/index.js';
import type { CustomerHistoryService } from '../tracking/index.js';
import { CustomersService } from './customers.service.js';
import { ProfileViewService, type ProfileAttributeSource, type ProfileViewDeps } from './profile-view.service.js';

export interface ProfileViewServices {
  /** The admin read model: profiles with their devices, segments and lists; a device's events. */
  readonly profileView: ProfileViewService;
  /** The admin UI's customers: found by any identifier, newest first, one customer's page and history. */
  readonly customers: CustomersService;
}

export function createProfileViewModule(
  deps: ProfileViewDeps & {
    /** The audience module's stored attributes of a profile. */
    readonly audience: ProfileAttributeSource;
    readonly identity: Pick<IdentityService, 'findProfiles' | 'getProfile' | 'listMerges' | 'profileIdsOf'>;
    readonly profileDirectory: ProfileDirectory;
    readonly customerHistory: CustomerHistoryService;
    readonly loyalty: Pick<LoyaltyService, 'viewMember'>;
    readonly messageHistory: Pick<HistoryService, 'sentPage'>;
  },
): { readonly services: ProfileViewServices } {
  const profileView = new ProfileViewService({ ...deps, attributes: deps.audience });
  return { services: { profileView, customers: new CustomersService({ ...deps, profileView }) } };
}
