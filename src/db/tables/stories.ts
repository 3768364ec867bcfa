/** Stories (0047, docs/stories.md). */

export interface StorySequencesTable {
  shop_id: string;
  kind: string;
  last_id: number;
}

export interface StorySetsTable {
  shop_id: string;
  /** Per shop, from story_sequences: what GET /stories/{code} answers as `id`. */
  id: number;
  /** [a-z0-9_-], 1 to 64 characters. */
  code: string;
  name: string | null;
  /** JSON object: the settings the shop gave (the answer fills the rest with defaults). */
  settings: string;
  created_at: number;
  updated_at: number;
}

export interface StoriesTable {
  shop_id: string;
  id: number;
  set_id: number;
  /** Order within the set, from 0. */
  position: number;
  name: string;
  avatar: string;
  pinned: number;
}

export interface StorySlidesTable {
  shop_id: string;
  id: number;
  story_id: number;
  set_id: number;
  position: number;
  type: string;
  background: string;
  background_color: string | null;
  preview: string | null;
  /** Seconds. */
  duration: number;
  /** JSON array of elements as stored (modules/stories/domain/elements.ts). */
  elements: string;
}

/** story_views and story_clicks: one row per device and slide. */
export interface StoryTouchesTable {
  shop_id: string;
  slide_id: number;
  did: string;
  story_id: number;
  set_id: number;
  created_at: number;
}

export interface StoryPendingClicksTable {
  shop_id: string;
  did: string;
  /** The story set's code: the view's recommended_code. */
  code: string;
  clicked_at: number;
}
