/**
 * What the promotions module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export type { CertificatesService } from './certificates.service.js';
export { normalizeCode } from './domain/codes.js';
export { minuteOfDay } from './domain/promotion.js';
export type { Promotion } from './domain/promotion.js';
export type { BlockRefusal } from './promo-code-holds.js';
export type { PromoCodesService } from './promo-codes.service.js';
export type { PromotionsService } from './promotions.service.js';
