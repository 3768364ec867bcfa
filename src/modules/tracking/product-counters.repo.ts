import { sql, type Kysely, type Selectable } from 'kysely';
import { PreparedQuery, PreparedQueryFamily } from '../../db/prepared-query.js';
import { columnCount, inListSlices, parameterChunks } from '../../db/statement-slices.js';
import type { Database, ProductCountersTable } from '../../db/types.js';

/**
 * The product counters of GET /products/counters, pre-aggregated per (shop, granularity,
 * bucket, item) as events arrive (docs/tracking.md, "Product counters"). Kysely only:
 * rows in, rows out. Every statement is scoped by shop_id.
 */
export type Executor = Kysely<Database>;
export type CounterRow = Selectable<ProductCountersTable>;

/** Adds the deltas to the stored buckets (`views = views + excluded.views`). */
export async function addToCounters(db: Executor, rows: readonly CounterRow[]): Promise<void> {
  for (const chunk of parameterChunks(rows, columnCount(rows))) {
    await db
      .insertInto('product_counters')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['shop_id', 'granularity', 'bucket', 'item_id']).doUpdateSet((eb) => ({
          views: eb('product_counters.views', '+', eb.ref('excluded.views')),
          carts: eb('product_counters.carts', '+', eb.ref('excluded.carts')),
          purchases: eb('product_counters.purchases', '+', eb.ref('excluded.purchases')),
        })),
      )
      .execute();
  }
}

export interface BucketList {
  readonly granularity: number;
  readonly buckets: readonly number[];
}

/**
 * One prepared statement per shape: how many items (a power of two: inListSlices pads the
 * list) and the bucket lists, `<granularity>:<buckets>` each, e.g. `4|60000:30,3600000:24`
 * (the windows are constants, so one bucket shape in all).
 */
const counterQueries = new PreparedQueryFamily((shape: string) => {
  const [items, bucketShape] = shape.split('|') as [string, string];
  const itemCount = Number(items);
  const lists = bucketShape.split(',').map((part) => {
    const [granularity, size] = part.split(':').map(Number);
    return { granularity: granularity!, size: size! };
  });
  const arity = 1 + itemCount + lists.reduce((sum, l) => sum + l.size, 0);
  return new PreparedQuery(arity, (db, shopId: string, ...rest: (string | number)[]) => {
    const itemIds = rest.slice(0, itemCount) as string[];
    let start = itemCount;
    const slices = lists.map((l) => rest.slice(start, (start += l.size)) as number[]);
    return db
      .selectFrom('product_counters')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where((eb) =>
        eb.or(slices.map((slice, i) => eb.and([eb('granularity', '=', sql.lit(lists[i]!.granularity)), eb('bucket', 'in', slice)]))),
      )
      .where('item_id', 'in', itemIds);
  });
});

/**
 * The rows of these items in the given buckets, in one prepared statement per IN list
 * (one key lookup per item and bucket); each row names its item.
 */
export async function findCounters(
  db: Executor,
  shopId: string,
  itemIds: readonly string[],
  lists: readonly BucketList[],
): Promise<CounterRow[]> {
  const asked = lists.filter((l) => l.buckets.length > 0);
  if (asked.length === 0 || itemIds.length === 0) return [];
  const bucketShape = asked.map((l) => `${l.granularity}:${l.buckets.length}`).join(',');
  const buckets = asked.flatMap((l) => l.buckets);
  const rows: CounterRow[] = [];
  for (const slice of inListSlices([...new Set(itemIds)])) {
    rows.push(...(await counterQueries.of(`${slice.length}|${bucketShape}`).execute(db, shopId, ...slice, ...buckets)));
  }
  return rows;
}

/** Deletes the shop's buckets of `granularity` that start before `before`. */
export async function deleteCountersBefore(db: Executor, shopId: string, granularity: number, before: number): Promise<void> {
  await db
    .deleteFrom('product_counters')
    .where('shop_id', '=', shopId)
    .where('granularity', '=', granularity)
    .where('bucket', '<', before)
    .execute();
}
