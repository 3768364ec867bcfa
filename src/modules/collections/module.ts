import { CollectionsService, type CollectionsDeps } from './collections.service.js';

export interface CollectionsServices {
  /** Product collections of the admin API and GET /collection/{id}. */
  readonly collections: CollectionsService;
}

export function createCollectionsModule(deps: CollectionsDeps): { readonly services: CollectionsServices } {
  return { services: { collections: new CollectionsService(deps) } };
}
