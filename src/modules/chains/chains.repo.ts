import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { ChainRunsTable, ChainsTable } from '../../db/types.js';
import type { Executor } from './chain-starter.js';

/** Kysely only: rows of the chain tables in and out. Every query filters by shop_id. */

export type ChainRow = Selectable<ChainsTable>;
export type RunRow = Selectable<ChainRunsTable>;

export async function findChainByCode(db: Executor, shopId: string, code: string): Promise<ChainRow | undefined> {
  return db.selectFrom('chains').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

export async function findChain(db: Executor, shopId: string, id: number): Promise<ChainRow | undefined> {
  return db.selectFrom('chains').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
}

/** The shop's chains of these ids (a batch of starts reads its chains once). */
export async function findChains(db: Executor, shopId: string, ids: readonly number[]): Promise<ChainRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('chains')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('id', 'in', [...ids])
    .execute();
}

export async function listChains(db: Executor, shopId: string): Promise<ChainRow[]> {
  return db.selectFrom('chains').selectAll().where('shop_id', '=', shopId).orderBy('code').execute();
}

export async function activeChainsOf(db: Executor, shopId: string, kind: string): Promise<Pick<ChainRow, 'id' | 'trigger'>[]> {
  return db
    .selectFrom('chains')
    .select(['id', 'trigger'])
    .where('shop_id', '=', shopId)
    .where('trigger_kind', '=', kind)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
}

/** Inserts a chain; false when its code is the shop's already (a concurrent PUT created it). */
export async function insertChain(db: Executor, row: Insertable<ChainsTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('chains')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Moves a chain to its next version; the new version number, answered by the one UPDATE. */
export async function bumpChain(
  db: Executor,
  shopId: string,
  code: string,
  values: Omit<Updateable<ChainsTable>, 'version' | 'shop_id' | 'id' | 'code' | 'created_at'>,
): Promise<{ id: number; version: number } | undefined> {
  return db
    .updateTable('chains')
    .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .returning(['id', 'version'])
    .executeTakeFirst();
}

export async function insertVersion(
  db: Executor,
  shopId: string,
  chainId: number,
  version: number,
  steps: string,
  at: number,
): Promise<void> {
  await db.insertInto('chain_versions').values({ shop_id: shopId, chain_id: chainId, version, steps, created_at: at }).execute();
}

export async function findVersionSteps(db: Executor, shopId: string, chainId: number, version: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('chain_versions')
    .select('steps')
    .where('shop_id', '=', shopId)
    .where('chain_id', '=', chainId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row?.steps;
}

/** Inserts a run; false when the chain has a run of this firing key already. */
export async function insertRun(db: Executor, row: Insertable<ChainRunsTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('chain_runs')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'chain_id', 'firing_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Inserts many runs in one statement; those inserted, as `shop_id/id` (a firing key the
 * chain has a run of already, or one given twice, is skipped).
 */
export async function insertRuns(db: Executor, rows: readonly Insertable<ChainRunsTable>[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await db
    .insertInto('chain_runs')
    .values([...rows])
    .onConflict((oc) => oc.columns(['shop_id', 'chain_id', 'firing_key']).doNothing())
    .returning(['shop_id', 'id'])
    .execute();
  return new Set(inserted.map((r) => `${r.shop_id}/${Number(r.id)}`));
}

export async function deleteRun(db: Executor, shopId: string, id: number): Promise<void> {
  await db.deleteFrom('chain_runs').where('shop_id', '=', shopId).where('id', '=', id).execute();
}

/**
 * Records an entry of the profile into the chain unless the re-entry rule refuses it, in
 * one statement: a first entry inserts; a later one updates only when `since` (the start
 * of the period that must have passed) is after the last entry. `since` null: never
 * (once). True when the entry counts. Concurrent entries queue on the row: one counts.
 */
export async function enterChain(
  db: Executor,
  row: { shop_id: string; chain_id: number; profile_id: number; entered_at: number; run_id: number },
  since: number | null,
): Promise<boolean> {
  const entered = await db
    .insertInto('chain_entries')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['shop_id', 'chain_id', 'profile_id'])
        .doUpdateSet({ entered_at: row.entered_at, run_id: row.run_id })
        .where((eb) => (since === null ? sql<boolean>`1 = 0` : eb('chain_entries.entered_at', '<=', since))),
    )
    .returning('run_id')
    .executeTakeFirst();
  return entered !== undefined;
}

export async function findRunIdByKey(db: Executor, shopId: string, chainId: number, key: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('chain_runs')
    .select('id')
    .where('shop_id', '=', shopId)
    .where('chain_id', '=', chainId)
    .where('firing_key', '=', key.slice(0, 200))
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

export async function findRun(db: Executor, shopId: string, id: number): Promise<RunRow | undefined> {
  return db.selectFrom('chain_runs').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
}

export async function listRunsOf(
  db: Executor,
  shopId: string,
  chainId: number,
  profileIds: readonly number[],
  limit: number,
): Promise<RunRow[]> {
  if (profileIds.length === 0) return [];
  return db
    .selectFrom('chain_runs')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', 'in', [...profileIds])
    .where('chain_id', '=', chainId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Moves a waiting run from step `from` on, conditional on it still being there: two
 * workers that both ran a step (a redelivered job) cannot both move it, and the one that
 * loses rolls back what its step wrote.
 */
export async function advanceRun(
  db: Executor,
  key: { shopId: string; id: number; from: number },
  values: Pick<Updateable<ChainRunsTable>, 'step' | 'due_at' | 'status' | 'reason' | 'ended_at' | 'updated_at'>,
): Promise<boolean> {
  const result = await db
    .updateTable('chain_runs')
    .set(values)
    .where('shop_id', '=', key.shopId)
    .where('id', '=', key.id)
    .where('step', '=', key.from)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ends the profile's waiting runs of chains with this trigger kind; how many ended. */
export async function exitRunsOfKind(
  db: Executor,
  shopId: string,
  profileId: number,
  kind: string,
  reason: string,
  at: number,
): Promise<number> {
  const result = await db
    .updateTable('chain_runs')
    .set({ status: 'exited', reason, ended_at: at, updated_at: at })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('status', '=', 'waiting')
    .where('chain_id', 'in', (eb) => eb.selectFrom('chains').select('id').where('shop_id', '=', shopId).where('trigger_kind', '=', kind))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether a chain message to the profile since `since` was opened (or clicked). */
export async function chainMessageOutcome(
  db: Executor,
  key: { shopId: string; chainId: number; profileId: number; since: number },
  outcome: 'opened_at' | 'clicked_at',
): Promise<boolean> {
  const row = await db
    .selectFrom('messaging_deliveries')
    .select('code')
    .where('shop_id', '=', key.shopId)
    .where('profile_id', '=', key.profileId)
    .where('type', '=', 'chain')
    .where('mailing_id', '=', key.chainId)
    .where('created_at', '>=', key.since)
    .where(outcome, 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The shop's time zone, read in the caller's transaction (a wait until a time of day). */
export async function shopTimezone(db: Executor, shopId: string): Promise<string | undefined> {
  const row = await db.selectFrom('shops').select('timezone').where('shop_id', '=', shopId).executeTakeFirst();
  return row?.timezone;
}

/**
 * The chain data of a profile merged into another (its merge participant): its runs move to
 * the survivor; its entries too, except for chains the survivor has entered already,
 * whose entry (the survivor's) stays, so a `once` chain stays once for the person.
 */
export async function moveProfileChains(db: Executor, shopId: string, fromId: number, intoId: number): Promise<void> {
  await db.updateTable('chain_runs').set({ profile_id: intoId }).where('shop_id', '=', shopId).where('profile_id', '=', fromId).execute();
  await db
    .deleteFrom('chain_entries')
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .where('chain_id', 'in', (eb) =>
      eb.selectFrom('chain_entries as e').select('e.chain_id').where('e.shop_id', '=', shopId).where('e.profile_id', '=', intoId),
    )
    .execute();
  await db
    .updateTable('chain_entries')
    .set({ profile_id: intoId })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .execute();
}
