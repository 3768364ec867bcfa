/**
 * Every job Patron runs: its name and the type of its payload. A module that adds a job
 * adds one line here (e.g. `'audience.import': { importId: number };`) and registers
 * its handler on the runner; enqueue and register then infer the payload type from the
 * name. Payloads are stored as JSON, so they hold plain data (ids, not rows): a handler
 * loads what it needs when it runs.
 */
export interface JobMap {
  /** Tracking's outbox: one stored event for one subscriber (src/modules/tracking). */
  'tracking.deliver': { shopId: string; eventId: number; subscriber: string };
}

/** The names of a job map (string keys only: names are stored in a text column). */
export type JobName<M extends object> = keyof M & string;
