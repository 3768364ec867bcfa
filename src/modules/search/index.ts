export { normalizeQuery } from './domain/query.js';
