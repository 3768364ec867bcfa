import { NpsReviewsService, type NpsReviewsDeps } from './reviews.service.js';
import { NpsSettingsService, type NpsSettingsDeps } from './settings.service.js';

export interface NpsServices {
  /** NPS channels and categories (admin-api.md "NPS"; GET /nps/channels and /nps/categories). */
  readonly npsSettings: NpsSettingsService;
  /** POST /nps/create and the admin's reviews, CSV and score (docs/nps.md). */
  readonly npsReviews: NpsReviewsService;
}

export interface NpsModule {
  readonly services: NpsServices;
}

export type NpsDeps = NpsSettingsDeps & Omit<NpsReviewsDeps, 'npsSettings'>;

export function createNpsModule(deps: NpsDeps): NpsModule {
  const npsSettings = new NpsSettingsService(deps);
  return { services: { npsSettings, npsReviews: new NpsReviewsService({ ...deps, npsSettings }) } };
}
