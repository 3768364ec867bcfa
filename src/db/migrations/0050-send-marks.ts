import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * A delivery's send mark (docs/messaging.md, "Sending once"): `send_token` names the job
 * claim that is sending it, set by a conditional update just before the vendor is called
 * and cleared with the outcome; `send_beat` counts that sender's beats while the vendor's
 * answer is awaited, so that another worker can tell a slow sender from a dead one by
 * watching it, whatever the clocks say.
 */
export function sendMarks(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('messaging_deliveries').addColumn('send_token', 'text').execute();
      await db.schema
        .alterTable('messaging_deliveries')
        .addColumn('send_beat', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('messaging_deliveries').dropColumn('send_beat').execute();
      await db.schema.alterTable('messaging_deliveries').dropColumn('send_token').execute();
    },
  };
}
