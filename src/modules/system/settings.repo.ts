import type { Executor } from '../shops/shops.repo.js';

export async function readSetting(db: Executor, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Writes the value only when the key is absent; returns whether this call wrote it. */
export async function insertSettingIfAbsent(db: Executor, key: string, value: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('settings')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function writeSetting(db: Executor, key: string, value: string, now: number): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
}
