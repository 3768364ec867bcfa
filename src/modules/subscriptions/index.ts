/**
 * What the subscriptions module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export type { SubscriptionUsageService } from './subscription-usage.service.js';
