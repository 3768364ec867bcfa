import { sql } from 'kysely';
import type { Executor } from './messaging.repo.js';

/** Kysely only: the template editor's rows (migration 0040). Every query filters by shop_id. */

export interface MessageTemplatesRow {
  readonly templates: string;
  readonly profile: string;
}

/** The templates and sample profile a test message carries, stored with it. */
export async function insertMessageTemplates(
  db: Executor,
  row: { shop_id: string; code: string; templates: string; profile: string; created_at: number },
): Promise<void> {
  await db.insertInto('messaging_message_templates').values(row).execute();
}

export async function findMessageTemplates(db: Executor, shopId: string, code: string): Promise<MessageTemplatesRow | undefined> {
  return db
    .selectFrom('messaging_message_templates')
    .select(['templates', 'profile'])
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .executeTakeFirst();
}

/**
 * Takes one of the shop's test sends of the window of `windowMs` begun by its first send,
 * in one conditional upsert: a window over starts a new one; within it, the count rises only
 * while under `limit`. True when taken; concurrent takes queue on the row, so at most
 * `limit` pass per window.
 */
export async function takeTestSend(db: Executor, shopId: string, now: number, windowMs: number, limit: number): Promise<boolean> {
  const over = now - windowMs;
  const taken = await db
    .insertInto('messaging_test_sends')
    .values({ shop_id: shopId, window_start: now, sent: 1 })
    .onConflict((oc) =>
      oc
        .column('shop_id')
        .doUpdateSet({
          window_start: sql<number>`case when messaging_test_sends.window_start <= ${over} then ${now} else messaging_test_sends.window_start end`,
          sent: sql<number>`case when messaging_test_sends.window_start <= ${over} then 1 else messaging_test_sends.sent + 1 end`,
        })
        .where((eb) => eb.or([eb('messaging_test_sends.window_start', '<=', over), eb('messaging_test_sends.sent', '<', limit)])),
    )
    .returning('sent')
    .executeTakeFirst();
  return taken !== undefined;
}

/** When the shop's current window of test sends began. */
export async function testWindowStart(db: Executor, shopId: string): Promise<number | undefined> {
  const row = await db.selectFrom('messaging_test_sends').select('window_start').where('shop_id', '=', shopId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.window_start);
}
