/**
 * What the audience module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export type { AudienceService } from './audience.service.js';
export type { CustomerAttributes } from './audience.types.js';
export type { SubscriptionFlag } from './domain/record.js';
export type { ProfilesService } from './profiles.service.js';
export type { SegmentEntry, SegmentEntryListener, SegmentsService } from './segments.service.js';
export type { SubscriptionFlagsService } from './subscription-flags.service.js';
