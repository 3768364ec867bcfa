import { SlidersService, type SlidersDeps } from './sliders.service.js';

export interface SlidersServices {
  /** Sliders (banner sets) of the admin API and GET /slider. */
  readonly sliders: SlidersService;
}

export function createSlidersModule(deps: SlidersDeps): { readonly services: SlidersServices } {
  return { services: { sliders: new SlidersService(deps) } };
}
