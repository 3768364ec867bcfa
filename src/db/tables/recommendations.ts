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
