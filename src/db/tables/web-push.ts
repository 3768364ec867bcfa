/** Kysely table types: browser push subscriptions (src/modules/messaging/web-push.service.ts). Column conventions: db/dialect.ts. */

export interface WebPushSubscriptionsTable {
  shop_id: string;
  /** The push service URL the browser gave (https); it names the browser. */
  endpoint: string;
  profile_id: number;
  /** The browser's P-256 public key, uncompressed point, base64url (65 bytes). */
  p256dh: string;
  /** The browser's authentication secret, base64url (16 bytes). */
  auth: string;
  created_at: number;
  updated_at: number;
}
