export { createNpsModule, type NpsModule, type NpsServices } from './module.js';
export type { NpsCategory, NpsChannel, CategoryInput } from './settings.service.js';
export type { NpsReview, NpsScore, ReviewInput, ReviewQuery } from './reviews.service.js';
export {
  CATEGORY_TEXTS,
  MAX_COMMENT_LENGTH,
  MAX_NAME_LENGTH,
  MAX_ORDER_ID_LENGTH,
  MAX_RATE,
  MAX_TEXT_LENGTH,
  MIN_RATE,
  NPS_CODE,
} from './domain/nps.js';
