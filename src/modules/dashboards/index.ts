/**
 * What the dashboards module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export type { DashboardRollups, MarkedDelivery, MarkedOutcome, TrackedEventFact, TrackedOrderFact } from './rollups.js';
export { datesBetween, epochDay } from './domain/days.js';
