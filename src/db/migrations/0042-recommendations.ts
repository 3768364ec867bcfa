import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Recommendation blocks (docs/recommendations.md): a block's ordered rules by its code, with
 * a per-shop integer id from recommendation_sequences (one upsert, no read before the write).
 */
export function recommendations(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('recommendation_sequences')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('recommendation_sequences_pk', ['shop_id', 'kind'])
        .execute();
      await db.schema
        .createTable('recommendation_blocks')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('limit', 'integer', (c) => c.notNull())
        .addColumn('rules', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('recommendation_blocks_pk', ['shop_id', 'id'])
        .addUniqueConstraint('recommendation_blocks_code_unique', ['shop_id', 'code'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('recommendation_blocks').execute();
      await db.schema.dropTable('recommendation_sequences').execute();
    },
  };
}
