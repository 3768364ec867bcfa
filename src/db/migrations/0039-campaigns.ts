import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Campaigns: bulk mailings with a test share, results and progress (docs/bulk.md).
 * - `bulk_mailings.audience`: the distinct members counted when the mailing was created,
 *   the progress bar's total until the expansion has seen every member.
 * - `bulk_mailings.decide_at`: when the A/B winner is chosen, once the test is written.
 * - `bulk_recipients.rest`: 1 for a member held for the A/B winner (sent the winner after
 *   the decision), so that the test's results per variant stay apart from the rest's.
 * - `messaging_deliveries.purchase_value`: the revenue (minor units) of the purchase
 *   attributed to the message, beside `purchased_at`, set by the same UPDATE.
 * - `profiles_reach_idx` (shop_id, id, email, phone, telegram_id): the reachable audience
 *   of a segment reads each member's addresses from the index alone, without a visit to
 *   the table row per member (a third of the time of the count on a million members).
 * - The A/B split of the mailings stored before changes shape: variant shares were
 *   percent of the audience (adding up to at most 100); they are now percent of a test
 *   share, adding up to 100, and the rule is in hours. A stored split is rewritten:
 *   test_share = the old total, shares rescaled by largest remainder, hours rounded up.
 */
export function campaigns(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('bulk_mailings').addColumn('audience', 'bigint').execute();
      await db.schema.alterTable('bulk_mailings').addColumn('decide_at', 'bigint').execute();
      await db.schema
        .alterTable('bulk_recipients')
        .addColumn('rest', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('messaging_deliveries').addColumn('purchase_value', 'bigint').execute();
      await db.schema
        .createIndex('profiles_reach_idx')
        .on('profiles')
        .columns(['shop_id', 'id', 'email', 'phone', 'telegram_id'])
        .execute();

      const { rows } = await sql<{ shop_id: string; id: number | string; ab: string }>`
        select shop_id, id, ab from bulk_mailings where ab is not null`.execute(db);
      for (const row of rows) {
        const rewritten = rewriteSplit(JSON.parse(row.ab) as LegacySplit);
        if (!rewritten) continue;
        await sql`update bulk_mailings set ab = ${JSON.stringify(rewritten)}
          where shop_id = ${row.shop_id} and id = ${Number(row.id)}`.execute(db);
      }
      await sql`update bulk_recipients set rest = 1 where status = 'held'`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('profiles_reach_idx').execute();
      await db.schema.alterTable('messaging_deliveries').dropColumn('purchase_value').execute();
      await db.schema.alterTable('bulk_recipients').dropColumn('rest').execute();
      await db.schema.alterTable('bulk_mailings').dropColumn('decide_at').execute();
      await db.schema.alterTable('bulk_mailings').dropColumn('audience').execute();
    },
  };
}

interface LegacySplit {
  readonly variants: Array<Record<string, unknown> & { share: number }>;
  readonly decide_after_seconds?: number;
  readonly metric: string;
}

/** The split of before in the new shape; undefined when it has it already. */
function rewriteSplit(split: LegacySplit): object | undefined {
  if (split.decide_after_seconds === undefined) return undefined;
  const total = split.variants.reduce((sum, v) => sum + v.share, 0);
  const exact = split.variants.map((v) => (v.share * 100) / total);
  const shares = exact.map(Math.floor);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (let left = 100 - shares.reduce((a, b) => a + b, 0), k = 0; left > 0; left -= 1, k += 1) {
    const i = order[k % order.length]?.[1] ?? 0;
    shares[i] = (shares[i] ?? 0) + 1;
  }
  return {
    test_share: total,
    variants: split.variants.map((v, i) => ({ ...v, share: shares[i] })),
    metric: split.metric,
    after_hours: Math.max(1, Math.ceil(split.decide_after_seconds / 3600)),
  };
}
