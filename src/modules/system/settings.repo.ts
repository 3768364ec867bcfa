import type { Executor } from '../shops/index.js';

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

/** Every setting whose key starts with `prefix`, with the time it was last written. */
export async function listSettingsByPrefix(db: Executor, prefix: string): Promise<{ key: string; value: string; updated_at: number }[]> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value', 'updated_at'])
    .where('key', '>=', prefix)
    .where('key', '<', `${prefix}\uffff`)
    .execute();
  return rows.map((row) => ({ ...row, updated_at: Number(row.updated_at) }));
}

export async function deleteSetting(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', key).execute();
}
