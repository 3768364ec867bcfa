/** Kysely table types: each recommendation block's daily figures and what led customers to items (0045). */

export interface RecommendationBlockDaysTable {
  shop_id: string;
  /** The block's code (recommendation_blocks.code). */
  code: string;
  /** YYYY-MM-DD in the shop's time zone at the moment the event happened. */
  day: string;
  /** recone_view events naming the block. */
  impressions: number;
  /** recone_click events naming the block. */
  clicks: number;
  /** view events carrying recommended_by=dynamic and the block's code. */
  views: number;
  /** cart events (not a whole-cart restatement) carrying the block's code. */
  carts: number;
  /** New orders with at least one item attributed to the block. */
  orders: number;
  /** Minor units: Σ price × amount of those attributed items. */
  revenue: number;
}

/** The last block that led a customer to an item (a view or cart carrying its code), for a later purchase. */
export interface RecommendationBlockTouchesTable {
  shop_id: string;
  profile_id: number;
  item_id: string;
  code: string;
  touched_at: number;
}
