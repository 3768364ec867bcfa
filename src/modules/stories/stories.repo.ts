import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, StoriesTable, StorySetsTable, StorySlidesTable, StoryTouchesTable } from '../../db/types.js';
import { takeShopSequence } from '../../db/sequences.js';

/** Kysely only: rows in, rows out. Every statement is scoped by shop_id. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type SetRow = Selectable<StorySetsTable>;
export type StoryRow = Selectable<StoriesTable>;
export type SlideRow = Selectable<StorySlidesTable>;
type TouchTable = 'story_views' | 'story_clicks';

/** `count` fresh per-shop ids of `kind` in one upsert (no read before the write): the last is answered. */
export async function takeIds(db: Executor, shopId: string, kind: 'sets' | 'stories' | 'slides', count: number): Promise<number[]> {
  if (count === 0) return [];
  const last = await takeShopSequence(db, 'story_sequences', shopId, { column: 'kind', value: kind }, count);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/** Inserts a set; false when its code is the shop's already (a concurrent PUT made it). */
export async function insertSet(db: Executor, row: Insertable<StorySetsTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('story_sets')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateSet(
  db: Executor,
  shopId: string,
  code: string,
  values: { name: string | null; settings: string; updated_at: number },
): Promise<SetRow | undefined> {
  return db.updateTable('story_sets').set(values).where('shop_id', '=', shopId).where('code', '=', code).returningAll().executeTakeFirst();
}

export async function findSet(db: Executor, shopId: string, code: string): Promise<SetRow | undefined> {
  return db.selectFrom('story_sets').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

export async function listSets(db: Executor, shopId: string): Promise<(SetRow & { stories: number })[]> {
  const rows = await db
    .selectFrom('story_sets as s')
    .selectAll('s')
    .select((eb) =>
      eb
        .selectFrom('stories as t')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('t.shop_id', '=', 's.shop_id')
        .whereRef('t.set_id', '=', 's.id')
        .as('stories'),
    )
    .where('s.shop_id', '=', shopId)
    .orderBy('s.code')
    .execute();
  return rows.map((row) => ({ ...row, stories: Number(row.stories ?? 0) }));
}

export async function findStories(db: Executor, shopId: string, setId: number): Promise<StoryRow[]> {
  return db.selectFrom('stories').selectAll().where('shop_id', '=', shopId).where('set_id', '=', setId).orderBy('position').execute();
}

export async function findSlides(db: Executor, shopId: string, setId: number): Promise<SlideRow[]> {
  return db
    .selectFrom('story_slides')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('set_id', '=', setId)
    .orderBy('story_id')
    .orderBy('position')
    .execute();
}

/** Replaces a set's stories and slides whole; views and clicks of slides no longer in it go with them. */
export async function replaceContent(
  trx: Transaction<Database>,
  shopId: string,
  setId: number,
  stories: readonly Insertable<StoriesTable>[],
  slides: readonly Insertable<StorySlidesTable>[],
  moved: readonly { slideId: number; storyId: number }[],
): Promise<void> {
  await trx.deleteFrom('stories').where('shop_id', '=', shopId).where('set_id', '=', setId).execute();
  await trx.deleteFrom('story_slides').where('shop_id', '=', shopId).where('set_id', '=', setId).execute();
  const kept = slides.map((slide) => slide.id);
  for (const table of ['story_views', 'story_clicks'] as const) {
    let removal = trx.deleteFrom(table).where('shop_id', '=', shopId).where('set_id', '=', setId);
    if (kept.length > 0) removal = removal.where('slide_id', 'not in', kept);
    await removal.execute();
  }
  // A slide that moved to another story keeps its views, now counted for that story.
  for (const move of moved) {
    for (const table of ['story_views', 'story_clicks'] as const) {
      await trx
        .updateTable(table)
        .set({ story_id: move.storyId })
        .where('shop_id', '=', shopId)
        .where('slide_id', '=', move.slideId)
        .execute();
    }
  }
  if (stories.length > 0)
    await trx
      .insertInto('stories')
      .values([...stories])
      .execute();
  for (let i = 0; i < slides.length; i += 200)
    await trx
      .insertInto('story_slides')
      .values(slides.slice(i, i + 200))
      .execute();
}

export async function deleteSet(trx: Transaction<Database>, shopId: string, setId: number): Promise<void> {
  for (const table of ['story_views', 'story_clicks', 'story_slides', 'stories'] as const) {
    await trx.deleteFrom(table).where('shop_id', '=', shopId).where('set_id', '=', setId).execute();
  }
  await trx.deleteFrom('story_sets').where('shop_id', '=', shopId).where('id', '=', setId).execute();
}

/** The set id of a slide of that story in the set of that code; undefined when there is none. */
export async function findSlideInSet(
  db: Executor,
  shopId: string,
  code: string,
  storyId: number,
  slideId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('story_slides as sl')
    .innerJoin('story_sets as st', (join) => join.onRef('st.shop_id', '=', 'sl.shop_id').onRef('st.id', '=', 'sl.set_id'))
    .select('sl.set_id')
    .where('sl.shop_id', '=', shopId)
    .where('sl.id', '=', slideId)
    .where('sl.story_id', '=', storyId)
    .where('st.code', '=', code)
    .executeTakeFirst();
  return row ? Number(row.set_id) : undefined;
}

/** One row per device and slide: true when this one is the first. */
export async function insertTouch(db: Executor, table: TouchTable, row: Insertable<StoryTouchesTable>): Promise<boolean> {
  const inserted = await db
    .insertInto(table)
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'slide_id', 'did']).doNothing())
    .returning('slide_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function viewedSlides(db: Executor, shopId: string, did: string, setId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('story_views')
    .select('slide_id')
    .where('shop_id', '=', shopId)
    .where('did', '=', did)
    .where('set_id', '=', setId)
    .execute();
  return rows.map((row) => Number(row.slide_id));
}

export async function rememberClick(db: Executor, shopId: string, did: string, code: string, at: number): Promise<void> {
  await db
    .insertInto('story_pending_clicks')
    .values({ shop_id: shopId, did, code, clicked_at: at })
    .onConflict((oc) => oc.columns(['shop_id', 'did']).doUpdateSet({ code, clicked_at: at }))
    .execute();
}

/**
 * Deletes these devices' remembered clicks and answers the set code of each made since
 * `since`, by did: the DELETE … RETURNING is what makes the take once-only. Most views
 * follow no click, so a read finds none first and writes nothing.
 */
export async function takeClicks(db: Executor, shopId: string, dids: readonly string[], since: number): Promise<Map<string, string>> {
  const taken = new Map<string, string>();
  for (let i = 0; i < dids.length; i += 500) {
    const slice = dids.slice(i, i + 500);
    const waiting = await db
      .selectFrom('story_pending_clicks')
      .select('did')
      .where('shop_id', '=', shopId)
      .where('did', 'in', slice)
      .execute();
    if (waiting.length === 0) continue;
    const rows = await db
      .deleteFrom('story_pending_clicks')
      .where('shop_id', '=', shopId)
      .where(
        'did',
        'in',
        waiting.map((row) => row.did),
      )
      .returning(['did', 'code', 'clicked_at'])
      .execute();
    for (const row of rows) if (Number(row.clicked_at) >= since) taken.set(row.did, row.code);
  }
  return taken;
}

/** Per slide: rows (devices) in views and clicks. */
export async function slideFigures(
  db: Executor,
  shopId: string,
  setId: number,
): Promise<{ table: TouchTable; slideId: number; n: number }[]> {
  const out: { table: TouchTable; slideId: number; n: number }[] = [];
  for (const table of ['story_views', 'story_clicks'] as const) {
    const rows = await db
      .selectFrom(table)
      .select(['slide_id', sql<number>`count(*)`.as('n')])
      .where('shop_id', '=', shopId)
      .where('set_id', '=', setId)
      .groupBy('slide_id')
      .execute();
    for (const row of rows) out.push({ table, slideId: Number(row.slide_id), n: Number(row.n) });
  }
  return out;
}

/** Per story: distinct devices in views and clicks. */
export async function storyFigures(
  db: Executor,
  shopId: string,
  setId: number,
): Promise<{ table: TouchTable; storyId: number; n: number }[]> {
  const out: { table: TouchTable; storyId: number; n: number }[] = [];
  for (const table of ['story_views', 'story_clicks'] as const) {
    const rows = await db
      .selectFrom(table)
      .select(['story_id', sql<number>`count(distinct did)`.as('n')])
      .where('shop_id', '=', shopId)
      .where('set_id', '=', setId)
      .groupBy('story_id')
      .execute();
    for (const row of rows) out.push({ table, storyId: Number(row.story_id), n: Number(row.n) });
  }
  return out;
}
