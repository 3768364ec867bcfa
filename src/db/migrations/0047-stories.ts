import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Stories (docs/stories.md): story sets by code, their stories and slides with per-shop
 * integer ids from story_sequences; a device's slide views and clicks, one row each (the
 * primary key is what keeps a repeat from counting twice); a device's last story click,
 * taken by its next product view (recommended_by `stories`).
 */
export function stories(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const shopId = 'shop_id';
      await db.schema
        .createTable('story_sequences')
        .addColumn(shopId, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('story_sequences_pk', ['shop_id', 'kind'])
        .execute();
      await db.schema
        .createTable('story_sets')
        .addColumn(shopId, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('story_sets_pk', ['shop_id', 'id'])
        .addUniqueConstraint('story_sets_code_unique', ['shop_id', 'code'])
        .execute();
      await db.schema
        .createTable('stories')
        .addColumn(shopId, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('set_id', 'bigint', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('avatar', 'text', (c) => c.notNull())
        .addColumn('pinned', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('stories_pk', ['shop_id', 'id'])
        .execute();
      await db.schema.createIndex('stories_set_idx').on('stories').columns(['shop_id', 'set_id', 'position']).execute();
      await db.schema
        .createTable('story_slides')
        .addColumn(shopId, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('story_id', 'bigint', (c) => c.notNull())
        .addColumn('set_id', 'bigint', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('background', 'text', (c) => c.notNull())
        .addColumn('background_color', 'text')
        .addColumn('preview', 'text')
        .addColumn('duration', 'integer', (c) => c.notNull())
        .addColumn('elements', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('story_slides_pk', ['shop_id', 'id'])
        .execute();
      await db.schema
        .createIndex('story_slides_set_idx')
        .on('story_slides')
        .columns(['shop_id', 'set_id', 'story_id', 'position'])
        .execute();
      for (const table of ['story_views', 'story_clicks']) {
        await db.schema
          .createTable(table)
          .addColumn(shopId, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
          .addColumn('slide_id', 'bigint', (c) => c.notNull())
          .addColumn('did', 'text', (c) => c.notNull())
          .addColumn('story_id', 'bigint', (c) => c.notNull())
          .addColumn('set_id', 'bigint', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, ['shop_id', 'slide_id', 'did'])
          .execute();
        await db.schema.createIndex(`${table}_set_idx`).on(table).columns(['shop_id', 'set_id', 'story_id']).execute();
      }
      await db.schema.createIndex('story_views_device_idx').on('story_views').columns(['shop_id', 'did', 'set_id']).execute();
      await db.schema
        .createTable('story_pending_clicks')
        .addColumn(shopId, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('did', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('clicked_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('story_pending_clicks_pk', ['shop_id', 'did'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'story_pending_clicks',
        'story_clicks',
        'story_views',
        'story_slides',
        'stories',
        'story_sets',
        'story_sequences',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
