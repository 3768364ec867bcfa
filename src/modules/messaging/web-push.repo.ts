import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { WebPushSubscription } from './domain/web-push-subscription.js';

export type Executor = Kysely<Database> | Transaction<Database>;

/** One row per browser: a repeated subscribe of the same endpoint takes the new keys and owner. */
export async function upsertSubscription(
  db: Executor,
  shopId: string,
  profileId: number,
  subscription: WebPushSubscription,
  now: number,
): Promise<void> {
  await db
    .insertInto('web_push_subscriptions')
    .values({
      shop_id: shopId,
      endpoint: subscription.endpoint,
      profile_id: profileId,
      p256dh: subscription.p256dh,
      auth: subscription.auth,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['shop_id', 'endpoint'])
        .doUpdateSet({ profile_id: profileId, p256dh: subscription.p256dh, auth: subscription.auth, updated_at: now }),
    )
    .execute();
}

export async function deleteSubscription(db: Executor, shopId: string, endpoint: string): Promise<number> {
  const result = await db
    .deleteFrom('web_push_subscriptions')
    .where('shop_id', '=', shopId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A profile's browsers, oldest first; bounded: a message goes to at most `limit` of them. */
export async function listSubscriptions(db: Executor, shopId: string, profileId: number, limit: number): Promise<WebPushSubscription[]> {
  return db
    .selectFrom('web_push_subscriptions')
    .select(['endpoint', 'p256dh', 'auth'])
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .orderBy('created_at')
    .orderBy('endpoint')
    .limit(limit)
    .execute();
}

/** The identity merge participant: the merged profile's browsers become the survivor's. */
export async function moveProfileSubscriptions(trx: Transaction<Database>, shopId: string, fromId: number, intoId: number): Promise<void> {
  await trx
    .updateTable('web_push_subscriptions')
    .set({ profile_id: intoId })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .execute();
}
