import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, SegmentMembersTable, SegmentsTable } from '../../db/types.js';
import { BulkStatement, inListSlices, statementSlices } from '../../db/statement-slices.js';
import { takeShopSequence } from '../../db/sequences.js';

/** Kysely only: segments and their members. Every statement is scoped by shop_id. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type SegmentRow = Selectable<SegmentsTable>;
export type MemberRow = Selectable<SegmentMembersTable>;

/**
 * The next id of a per-shop sequence (`segments`, `imports`): one upsert, which holds the
 * row until the transaction ends, so two creators never get the same id.
 */
export async function allocateId(db: Executor, shopId: string, name: 'segments' | 'imports'): Promise<number> {
  return takeShopSequence(db, 'audience_sequences', shopId, { column: 'name', value: name });
}

export async function insertSegment(db: Executor, row: SegmentRow): Promise<void> {
  await db.insertInto('segments').values(row).execute();
}

export async function findSegment(db: Executor, shopId: string, id: number): Promise<SegmentRow | undefined> {
  return db.selectFrom('segments').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
}

export async function listSegments(db: Executor, shopId: string, limit: number): Promise<SegmentRow[]> {
  return db.selectFrom('segments').selectAll().where('shop_id', '=', shopId).orderBy('id').limit(limit).execute();
}

/** True when a segment was deleted; its members go with it (foreign key cascade). */
export async function deleteSegment(db: Executor, shopId: string, id: number): Promise<boolean> {
  // Members first: SQLite's cascade would do it too, but row by row inside the DELETE.
  await db.deleteFrom('segment_members').where('shop_id', '=', shopId).where('segment_id', '=', id).execute();
  const result = await db.deleteFrom('segments').where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Members per segment, for the given segments. */
export async function countMembers(db: Executor, shopId: string, segmentIds: readonly number[]): Promise<Map<number, number>> {
  if (segmentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('segment_members')
    .select((eb) => ['segment_id', eb.fn.countAll<number | string>().as('size')])
    .where('shop_id', '=', shopId)
    .where('segment_id', 'in', segmentIds)
    .groupBy('segment_id')
    .execute();
  return new Map(rows.map((r) => [r.segment_id, Number(r.size)]));
}

const ADD_MEMBERS = new BulkStatement<MemberRow>(4, (db, rows) =>
  db
    .insertInto('segment_members')
    .values(rows)
    .onConflict((oc) => oc.columns(['shop_id', 'segment_id', 'profile_id']).doNothing()),
);

/** Adds members; one that is already a member stays as it was. */
export async function addMembers(db: Executor, rows: readonly MemberRow[]): Promise<void> {
  await ADD_MEMBERS.execute(db, rows);
}

/** Adds members as addMembers does, and returns the profiles that were not members before. */
export async function addMembersReturningNew(db: Executor, rows: readonly MemberRow[]): Promise<number[]> {
  const added: number[] = [];
  for (const slice of statementSlices(rows, 4)) {
    const inserted = await db
      .insertInto('segment_members')
      .values(slice)
      .onConflict((oc) => oc.columns(['shop_id', 'segment_id', 'profile_id']).doNothing())
      .returning('profile_id')
      .execute();
    for (const row of inserted) added.push(Number(row.profile_id));
  }
  return added;
}

export async function findMemberships(
  db: Executor,
  shopId: string,
  profileIds: readonly number[],
): Promise<Pick<MemberRow, 'profile_id' | 'segment_id'>[]> {
  const rows: Pick<MemberRow, 'profile_id' | 'segment_id'>[] = [];
  for (const slice of inListSlices([...new Set(profileIds)])) {
    rows.push(
      ...(await db
        .selectFrom('segment_members')
        .select(['profile_id', 'segment_id'])
        .where('shop_id', '=', shopId)
        .where('profile_id', 'in', slice)
        .orderBy('segment_id')
        .execute()),
    );
  }
  return rows;
}

/** A merge: the merged profile's memberships become the survivor's (kept once where both are members). */
export async function moveMembers(db: Executor, shopId: string, fromId: number, intoId: number): Promise<void> {
  await db
    .insertInto('segment_members')
    .columns(['shop_id', 'segment_id', 'profile_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('segment_members')
        .select(['shop_id', 'segment_id', sql<number>`cast(${intoId} as bigint)`.as('profile_id'), 'created_at'])
        .where('shop_id', '=', shopId)
        .where('profile_id', '=', fromId),
    )
    .onConflict((oc) => oc.columns(['shop_id', 'segment_id', 'profile_id']).doNothing())
    .execute();
  await db.deleteFrom('segment_members').where('shop_id', '=', shopId).where('profile_id', '=', fromId).execute();
}

/** Removes a member; false when the profile was not one. */
export async function removeMember(db: Executor, shopId: string, segmentId: number, profileId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('segment_members')
    .where('shop_id', '=', shopId)
    .where('segment_id', '=', segmentId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
