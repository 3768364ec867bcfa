/**
 * What the shopper-view module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export { startOfDayIn } from './domain/dates.js';
