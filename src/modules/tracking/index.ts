/**
 * What the tracking module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export { MAX_ITEM_ID_LENGTH } from './domain/items.js';
export type { TrackedItem } from './domain/items.js';
export { orderTotals, toMinorUnits } from './domain/money.js';
export type { TrackingService } from './tracking.service.js';
export type { CustomerHistoryService, TimeKey } from './customer-history.service.js';
export { PUSH_EVENTS } from './tracking.types.js';
export type {
  ProductActivityCounters,
  ProfileLists,
  StoredEvent,
  TrackedBatchListener,
  TrackedOrder,
  TrackingSubscriber,
  ViewAttribution,
  ViewAttributionSource,
} from './tracking.types.js';
