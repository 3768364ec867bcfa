/** Kysely table types: NPS channels, categories and reviews (0049, docs/nps.md). */

export interface NpsChannelsTable {
  shop_id: string;
  code: string;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface NpsCategoriesTable {
  shop_id: string;
  code: string;
  name: string;
  detractor_question: string | null;
  passive_question: string | null;
  promoter_question: string | null;
  detractor_success: string | null;
  passive_success: string | null;
  promoter_success: string | null;
  created_at: number;
  updated_at: number;
}

export interface NpsReviewSequencesTable {
  shop_id: string;
  last_id: number;
}

export interface NpsReviewsTable {
  shop_id: string;
  id: number;
  profile_id: number;
  /** The channel's code as the review named it. */
  channel: string;
  /** The category's code as the review named it. */
  category: string;
  /** 0 to 10. */
  rate: number;
  comment: string | null;
  order_id: string | null;
  /** `o:<order id>` for a review of an order, else `d:<day>`: one review per key (docs/nps.md "Once"). */
  dedupe_key: string;
  /** YYYY-MM-DD in the shop's time zone when the review was (last) given. */
  day: string;
  created_at: number;
  updated_at: number;
}
