/**
 * Every job Patron runs: its name and the type of its payload. A module that adds a job
 * adds one line here (e.g. `'audience.import': { importId: number };`) and returns its
 * handler from its module factory (job-handlers.ts); enqueue and the handler then infer
 * the payload type from the name. Payloads are stored as JSON, so they hold plain data
 * (ids, not rows): a handler loads what it needs when it runs.
 */
export interface JobMap {
  /** Tracking's outbox: one stored event for one subscriber (src/modules/tracking). */
  'tracking.deliver': { shopId: string; eventId: number; subscriber: string };
  /** Product pictures of a landed catalog generation (src/modules/images). */
  'images.download': { shopId: string; generation: number };
  /** One link of a shop's chain of scheduled feed fetches, due at `at` (src/modules/catalog). */
  'catalog.fetch': { shopId: string; at: number };
  /** An audience import, processed from its cursor to the end (src/modules/audience). */
  'audience.import': { shopId: string; importId: number };
  /** One link of a shop's loyalty upkeep chain, due at `at`: confirms and expires lots (src/modules/loyalty). */
  'loyalty.sweep': { shopId: string; at: number };
  /** One link of a shop's daily chain of loyalty level recomputes, due at `at` (src/modules/loyalty). */
  'loyalty.levels': { shopId: string; at: number };
  /** One delivery of a message (its code and seq) through its channel's provider (src/modules/messaging). */
  'messaging.deliver': { shopId: string; code: string; seq: number };
  /** One signed delivery of an event to a shop's webhook endpoint (src/modules/webhooks). */
  'webhooks.deliver': { shopId: string; endpointId: string; id: string };
  /** A chain run's due steps, from its current one to the next wait or its end (src/modules/chains). */
  'chains.step': { shopId: string; runId: number };
  /** Page `page` of a bulk mailing's expansion into messages; runs only while the mailing's pages done = page (src/modules/bulk). */
  'bulk.expand': { shopId: string; mailingId: number; page: number };
  /** A bulk mailing's A/B winner, chosen and sent to the held members (src/modules/bulk). */
  'bulk.decide': { shopId: string; mailingId: number };
  /** An abandoned cart or wish list checked when one of its chains' delays has passed since the change `eventId` (src/modules/chains/triggers). */
  'chains.abandoned_check': { shopId: string; profileId: number; list: 'cart' | 'wish'; eventId: number };
  /** The back-in-stock and price-drop alerts of a landed catalog generation, handed to the shop's chains (src/modules/chains/triggers). */
  'chains.product_alerts': { shopId: string; generation: number };
  /** Profiles that entered a segment at `at`, handed to the shop's segment_entry chains (src/modules/chains/triggers). */
  'chains.segment_entries': { shopId: string; segmentId: number; profileIds: number[]; at: number };
  /** The audit log's daily retention run, due at `at`: deletes entries past the kept days, then queues the next (src/modules/audit). */
  'audit.prune': { at: number };
  /** A shop's dashboards rollups of what was stored before they existed, from its saved cursor to the end (src/modules/dashboards). */
  'dashboards.backfill': { shopId: string };
  /** A build of a shop's recommendation models: asked for (`at` null) or the daily link due at `at` (src/modules/recommendations). */
  'recommendations.rebuild': { shopId: string; at: number | null };
}

/** The names of a job map (string keys only: names are stored in a text column). */
export type JobName<M extends object> = keyof M & string;
