import { createDb, type DbOptions } from '../../src/db/create-db.js';

/**
 * Reads back what the server committed, straight from its database after it stopped,
 * and sets it against what the client was told: every marker answered 2xx must be
 * stored exactly once; a request cut off at the stop may or may not be stored.
 */

export interface StoredCheck {
  readonly acknowledged: number;
  readonly storedAcknowledged: number;
  readonly duplicates: number;
  readonly storedUnacknowledged: number;
  readonly cutOff: number;
  readonly ok: boolean;
}

/** How many stored events of the shop carry each marker (an item's line_id starting with a prefix). */
export async function countStoredMarkers(
  options: DbOptions,
  shopId: string,
  prefixes: readonly string[],
): Promise<Map<string, number>> {
  const handle = createDb(options);
  try {
    const rows = await handle.db
      .selectFrom('events')
      .select('items')
      .where('shop_id', '=', shopId)
      .where('event', '=', 'cart')
      .execute();
    const counts = new Map<string, number>();
    for (const row of rows) {
      for (const item of JSON.parse(row.items) as Array<{ line_id?: string }>) {
        const marker = item.line_id;
        if (marker !== undefined && prefixes.some((p) => marker.startsWith(p))) {
          counts.set(marker, (counts.get(marker) ?? 0) + 1);
        }
      }
    }
    return counts;
  } finally {
    await handle.destroy();
  }
}

export function checkStored(acknowledged: ReadonlySet<string>, stored: ReadonlyMap<string, number>, cutOff: number): StoredCheck {
  let storedAcknowledged = 0;
  let duplicates = 0;
  let storedUnacknowledged = 0;
  for (const [marker, count] of stored) {
    if (count > 1) duplicates += 1;
    if (acknowledged.has(marker)) storedAcknowledged += 1;
    else storedUnacknowledged += 1;
  }
  return {
    acknowledged: acknowledged.size,
    storedAcknowledged,
    duplicates,
    storedUnacknowledged,
    cutOff,
    ok: storedAcknowledged === acknowledged.size && duplicates === 0 && storedUnacknowledged <= cutOff,
  };
}
