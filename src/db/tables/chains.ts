/** Kysely table types: triggered message chains (src/modules/chains). Column conventions: db/dialect.ts. */

export interface ChainsTable {
  shop_id: string;
  /** Per shop, from messaging_sequences ('chains'): the `campaign_id` of the chain's messages. */
  id: number;
  code: string;
  name: string | null;
  status: 'active' | 'paused';
  /** The trigger's kind (chain-starter.ts TriggerKind), for the detectors' lookup. */
  trigger_kind: string;
  /** JSON: the trigger as the admin API spells it. */
  trigger: string;
  reentry: 'always' | 'once' | 'once_per_period';
  /** once_per_period: the period in ms; null otherwise. */
  reentry_period_ms: number | null;
  /** The current version: new runs start on it. */
  version: number;
  created_at: number;
  updated_at: number;
}

export interface ChainVersionsTable {
  shop_id: string;
  chain_id: number;
  version: number;
  /** JSON array of steps (modules/chains/domain/steps.ts). */
  steps: string;
  created_at: number;
}

export interface ChainRunsTable {
  shop_id: string;
  /** Per shop, from messaging_sequences ('chain_runs'). */
  id: number;
  chain_id: number;
  version: number;
  profile_id: number;
  /** Unique per chain: a firing handed over twice starts one run. */
  firing_key: string;
  status: 'waiting' | 'done' | 'exited';
  /** The index of the current step, from 0 (the last one reached once the run ended). */
  step: number;
  /** Not before this instant does the current step run (the end of a wait). */
  due_at: number;
  /** JSON object: the trigger's variables. */
  variables: string;
  /** JSON array of products (cart, wish and product triggers); null without. */
  products: string | null;
  /** Why an exited run exited (a false condition, an ended cart…). */
  reason: string | null;
  started_at: number;
  updated_at: number;
  ended_at: number | null;
}

export interface ChainEntriesTable {
  shop_id: string;
  chain_id: number;
  profile_id: number;
  /** The last entry that counted: re-entry is decided by a conditional upsert of this row. */
  entered_at: number;
  run_id: number;
}
