/**
 * What the images module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export { hashLink } from './domain/links.js';
export { THUMBNAIL_SIZES } from './images.types.js';
export type { ProductImageView } from './images.types.js';
