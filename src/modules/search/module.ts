import type { TrackingSubscriber } from '../tracking/index.js';
import { SearchService, type SearchDeps } from './search.service.js';

export interface SearchServices {
  /** Product search over the served catalog, the search log and its no-result queries. */
  readonly search: SearchService;
}

export interface SearchModule {
  readonly services: SearchServices;
  readonly trackingSubscribers: readonly TrackingSubscriber[];
}

export function createSearchModule(deps: SearchDeps): SearchModule {
  const search = new SearchService(deps);
  // The search event of POST /push feeds the search log.
  return { services: { search }, trackingSubscribers: [search.trackingSubscriber()] };
}
