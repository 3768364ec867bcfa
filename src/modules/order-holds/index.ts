/**
 * What the order-holds module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export type { HoldPlacement, OrderHoldParticipant, OrderHoldScope, OrderPlaceScope } from './order-holds.js';
