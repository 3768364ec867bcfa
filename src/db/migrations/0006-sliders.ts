import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Sliders (src/modules/sliders): banner sets a shop defines in the admin API and clients
 * read with GET /slider (interface.md endpoint 10).
 *
 * One row per slider, its slides a JSON array in one text column: a slider is written
 * whole (PUT replaces it) and read whole (tag filtering picks among at most
 * MAX_SLIDES slides in domain code), so a child table would only add a join and a
 * delete-and-reinsert to every replace. One row also makes a replace a single upsert:
 * a reader sees the old slider or the new one, never a mix.
 */
export function sliders(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sliders')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        // JSON array of slides in display order (modules/sliders/sliders.repo.ts).
        .addColumn('slides', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sliders_pk', ['shop_id', 'code'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('sliders').execute();
    },
  };
}
