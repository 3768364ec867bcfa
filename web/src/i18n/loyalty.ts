/**
 * The loyalty section's strings (web/src/loyalty/): promotions and promo codes, the
 * programme, its members, subscriptions and certificates. Spread into en.ts and ru.ts.
 */
export { loyaltyEn } from './loyalty.en';
export { loyaltyRu } from './loyalty.ru';
