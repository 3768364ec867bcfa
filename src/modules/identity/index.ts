/**
 * What the identity module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export {
  IDENTIFIER_FIELDS,
  IDENTIFIER_KINDS,
  isValidDeviceId,
  isValidSessionId,
  normalizeIdentifier,
  normalizeIdentifiers,
  normalizePhone,
} from './domain/identifiers.js';
export type { IdentifierKind, Identifiers } from './domain/identifiers.js';
export type { Profile, ProfileWithDevices } from './domain/profile.js';
export type { IdentityInput, IdentityService, MergeParticipant } from './identity.service.js';
export type { ProfileDirectory, ProfileKey } from './profile-directory.js';
export { generateDeviceId } from './ids.js';
