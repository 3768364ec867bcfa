/**
 * What the checkout module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export { MINUTES_PER_DAY, minutesInTimezone, parseClockTime } from './domain/conditions.js';
