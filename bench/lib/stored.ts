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

/**
 * How many stored events of the shop carry each marker starting with a prefix: an
 * item's line_id of `event` events (cart or view), or the `label` of custom events with `customCode`.
 */
export async function countStoredMarkers(
  options: DbOptions,
  shopId: string,
  prefixes: readonly string[],
  customCode?: string,
  event = 'cart',
): Promise<Map<string, number>> {
  const handle = createDb(options);
  try {
    const rows = await handle.db
      .selectFrom('events')
      .select(['items', 'params'])
      .where('shop_id', '=', shopId)
      .where('event', '=', customCode ?? event)
      .execute();
    const counts = new Map<string, number>();
    const count = (marker: unknown): void => {
      if (typeof marker === 'string' && prefixes.some((p) => marker.startsWith(p))) counts.set(marker, (counts.get(marker) ?? 0) + 1);
    };
    for (const row of rows) {
      if (customCode !== undefined) count((JSON.parse(row.params) as { label?: unknown }).label);
      else for (const item of JSON.parse(row.items) as Array<{ line_id?: string }>) count(item.line_id);
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
