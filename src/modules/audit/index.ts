/**
 * What the audit module offers the other modules and the scopes: they import it from
 * here, never from its files (eslint.config.js, "module-boundaries").
 */
export type { AuditService, AuditQuery, AuditPage } from './audit.service.js';
export type { AuditActor, AuditEntry, AuditEntryInput } from './domain/audit-entry.js';
export { bodySummary, omitted, recordedPath } from './domain/audit-entry.js';
export { actionName } from './domain/action-name.js';
export { isPlainObject } from './domain/redact.js';
