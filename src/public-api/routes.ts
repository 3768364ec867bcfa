import { trackingRoutes } from './tracking/tracking.routes.js';
import type { PublicRouteModule } from './types.js';

/**
 * The route modules of the public API (interface.md), registered by app.ts through
 * publicApiPlugin. Each module declares `config.envelope` and `config.auth` per route.
 */
export const PUBLIC_ROUTES: readonly PublicRouteModule[] = [trackingRoutes];
