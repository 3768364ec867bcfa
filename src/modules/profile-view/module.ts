import { ProfileViewService, type ProfileAttributeSource, type ProfileViewDeps } from './profile-view.service.js';

export interface ProfileViewServices {
  /** The admin read model: profiles with their devices, segments and lists; a device's events. */
  readonly profileView: ProfileViewService;
}

export function createProfileViewModule(
  deps: ProfileViewDeps & {
    /** The audience module's stored attributes of a profile. */
    readonly audience: ProfileAttributeSource;
  },
): { readonly services: ProfileViewServices } {
  return { services: { profileView: new ProfileViewService({ ...deps, attributes: deps.audience }) } };
}
