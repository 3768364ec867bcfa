export interface RecommendationBlocksTable {
  shop_id: string;
  /** Per shop, from recommendation_sequences; what GET /recommend answers as the block's `id`. */
  id: number;
  /** [a-z0-9_-], 1 to 64 characters: the path of GET /recommend/{code}. */
  code: string;
  name: string | null;
  title: string;
  /** 1 to 100 products. */
  limit: number;
  /** JSON array of rules (modules/recommendations/domain/rules.ts). */
  rules: string;
  created_at: number;
  updated_at: number;
}

export interface RecommendationSequencesTable {
  shop_id: string;
  kind: string;
  last_id: number;
}

/** An item's top-N neighbours of one kind, as the last build wrote them (0043). */
export interface RecommendationNeighboursTable {
  shop_id: string;
  /** `search`: item_id is a normalised search query, its list what those who searched it bought. */
  kind: 'also_bought' | 'also_viewed' | 'search';
  item_id: string;
  /** JSON array of [item id, score] pairs, best first. */
  items: string;
}

/** A shop-wide list of one kind, as the last build wrote it (0043). */
export interface RecommendationListsTable {
  shop_id: string;
  kind: 'popular' | 'trending' | 'buying_now';
  /** JSON array of [item id, score] pairs, best first. */
  items: string;
}

/** The shop's last finished build and the claim of the running one (0043). */
export interface RecommendationBuildsTable {
  shop_id: string;
  built_at: number | null;
  /** The running build's claim; null when none runs. A claim past lease_until is dead. */
  build_token: string | null;
  building_since: number | null;
  lease_until: number | null;
  last_error: string | null;
  last_error_at: number | null;
  orders_read: number;
  sessions_read: number;
  items_with_neighbours: number;
  duration_ms: number | null;
  /** The running build's orders, views, carts and searches read so far (0046); null before its first chunk. */
  rows_read: number | null;
}

/** The shop's probability-to-purchase model, as the last build trained it (0044). */
export interface RecommendationPredictorsTable {
  shop_id: string;
  /** JSON {features, model} (domain/predictor.ts); null when there was too little to learn from. */
  model: string | null;
  /** Share of the customers active before the training cut-off who bought in the 30 days after it. */
  base_rate: number;
  training_size: number;
  positives: number;
  /** On the held-out customers; null without a model or when they were of one class. */
  auc: number | null;
  built_at: number;
}
