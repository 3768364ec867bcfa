/** Popups (0048, docs/popups.md). Times are epoch milliseconds. */
export interface PopupsTable {
  shop_id: string;
  /** Per shop, from popup_sequences; what the apps get as the popup's `id`. */
  id: number;
  name: string;
  status: 'active' | 'inactive';
  position: string;
  /** Seconds the app waits before showing it. */
  delay: number;
  /** JSON arrays of strings: empty means every stream / every screen. */
  streams: string;
  screens: string;
  channels: string;
  /** As the shop wrote it ('' for none). */
  html: string;
  /** JSON object text: string values only. */
  components: string;
  /** JSON object text: link, close, system_mobile_push_subscribe. */
  actions: string;
  /** 0 or 1. */
  web_push_system: number;
  segment_id: number | null;
  starts_at: number | null;
  ends_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface PopupSequencesTable {
  shop_id: string;
  last_id: number;
}

/** A device that was shown (popup_shows) or clicked (popup_clicks) a popup, once each. */
export interface PopupDeviceMarksTable {
  shop_id: string;
  popup_id: number;
  did: string;
  created_at: number;
}

/** The last popup offered to a device and when. */
export interface PopupOffersTable {
  shop_id: string;
  did: string;
  popup_id: number;
  offered_at: number;
}
