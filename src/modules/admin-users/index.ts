/**
 * What the admin-users module offers the rest of Patron: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export type { AccountsService, ApiTokenInfo, CreateUserInput, UserPatch } from './accounts.service.js';
export { INVITATION_TTL_MS } from './accounts.service.js';
export { mayAccess, type AccessActor, type AccessRequest } from './domain/access-policy.js';
export { ADMIN_ROLES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type AdminRole, type AdminUser } from './domain/user.js';
export { API_TOKEN_PREFIX } from './secrets.js';
export type { ClientFacts, LiveSession, SessionSummary, SessionsService, StartedSession } from './sessions.service.js';
