import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Insertable, Selectable } from 'kysely';
import type { MessagingDeliveryAttemptsTable } from '../../db/tables/messaging.js';
import type { Executor } from './messaging.repo.js';

/** Each try of a delivery and an email's HTML as rendered (migration 0041); read by the admin's delivery log. */

export type AttemptRow = Selectable<MessagingDeliveryAttemptsTable>;

export async function insertAttempt(db: Executor, row: Insertable<MessagingDeliveryAttemptsTable>): Promise<void> {
  // A worker killed before its commit tries again under the same attempt number: the first record stays.
  await db
    .insertInto('messaging_delivery_attempts')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code', 'seq', 'attempt']).doNothing())
    .execute();
}

export async function listAttempts(db: Executor, shopId: string, code: string): Promise<AttemptRow[]> {
  return db
    .selectFrom('messaging_delivery_attempts')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .orderBy('seq')
    .orderBy('attempt')
    .limit(1_000)
    .execute();
}

/** Stores the HTML an email delivery was sent with, deflated (HTML shrinks several times). */
export async function saveHtml(db: Executor, shopId: string, code: string, seq: number, html: string): Promise<void> {
  const packed = deflateRawSync(Buffer.from(html, 'utf8'), { level: 1 });
  await db
    .insertInto('messaging_delivery_html')
    .values({ shop_id: shopId, code, seq, html: packed })
    .onConflict((oc) => oc.columns(['shop_id', 'code', 'seq']).doUpdateSet({ html: packed }))
    .execute();
}

export async function findHtml(db: Executor, shopId: string, code: string): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('messaging_delivery_html')
    .select(['seq', 'html'])
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .limit(1_000)
    .execute();
  return new Map(rows.map((r) => [r.seq, inflateRawSync(r.html).toString('utf8')]));
}
