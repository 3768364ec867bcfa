import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Browser push subscriptions (src/modules/messaging/web-push.service.ts, docs/messaging-push.md
 * "Web push subscriptions"): one row per browser that subscribed through the public
 * endpoint. A browser's endpoint names it: a second subscribe from the same browser
 * replaces the keys and the owner (unique per shop and endpoint). No foreign key to
 * profiles: merges move the rows (the identity merge participant).
 */
export function webPush(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('web_push_subscriptions')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('web_push_subscriptions_pk', ['shop_id', 'endpoint'])
        .execute();
      // A profile's browsers: the addresses of a message; merges move them.
      await db.schema
        .createIndex('web_push_subscriptions_profile')
        .on('web_push_subscriptions')
        .columns(['shop_id', 'profile_id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('web_push_subscriptions').execute();
    },
  };
}
