import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * What the ledger's upkeep needs (docs/loyalty.md, "Upkeep"):
 * - `loyalty_lots.confirms_at`: when a pending lot (a reward on its way) is due to be
 *   confirmed, fixed when it is credited so that a later change of `reward_pending_days`
 *   does not move lots already given;
 * - two partial indexes, leading with the shop, that find the lots due now without
 *   reading the others: pending lots by confirms_at, lots with something left by expiry.
 */
export function loyaltyUpkeep(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('loyalty_lots').addColumn('confirms_at', 'bigint').execute();
      await db.schema
        .createIndex('loyalty_lots_due_confirm')
        .on('loyalty_lots')
        .columns(['shop_id', 'confirms_at'])
        .where(sql.ref('status'), '=', 'pending')
        .execute();
      await db.schema
        .createIndex('loyalty_lots_due_expiry')
        .on('loyalty_lots')
        .columns(['shop_id', 'expires_at'])
        .where(sql<boolean>`remaining > 0 and expires_at is not null`)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('loyalty_lots_due_expiry').execute();
      await db.schema.dropIndex('loyalty_lots_due_confirm').execute();
      await db.schema.alterTable('loyalty_lots').dropColumn('confirms_at').execute();
    },
  };
}
