import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * What became of a message (docs/messaging.md, "Tracking"): `delivered_at` on a delivery,
 * set when the mobile SDK reports the push shown (POST /track/delivered). The other
 * outcomes (opened, clicked, bounced, complained, unsubscribed, purchased) have their
 * columns since 0025.
 */
export function messagingTracking(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('messaging_deliveries').addColumn('delivered_at', 'bigint').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('messaging_deliveries').dropColumn('delivered_at').execute();
    },
  };
}
