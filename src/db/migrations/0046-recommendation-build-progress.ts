import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The running recommendation build's progress (docs/recommendations.md "Models",
 * "Status"): the rows it has read so far, written with each renewal of its claim (once
 * per chunk), so the admin API and UI show a build moving, not only that one runs.
 */
export function recommendationBuildProgress(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('recommendation_builds').addColumn('rows_read', 'bigint').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('recommendation_builds').dropColumn('rows_read').execute();
    },
  };
}
