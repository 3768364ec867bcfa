/**
 * What the shops module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export { currencySymbol } from './domain/currency.js';
export { CUSTOM_EVENT_CODE_PATTERN, SHOP_ID_PATTERN, dateInTimezone, isValidCalendarDate } from './domain/shop.js';
export type { Shop } from './domain/shop.js';
export { generateSecret, hashSecret, secretMatches } from './secrets.js';
export type { Executor } from './shops.repo.js';
export type { ShopsService } from './shops.service.js';
