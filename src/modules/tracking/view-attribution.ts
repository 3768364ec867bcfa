import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { EventDraft } from './domain/event-draft.js';
import type { ViewAttribution, ViewAttributionSource } from './tracking.types.js';

/**
 * A product view is the next view after what a source remembers for its device (a story
 * click, docs/stories.md "Clicks"): the source gives it up in the batch's transaction, so
 * that it is taken once and with the event, and the device's first view of the batch takes
 * it, applying it when the view names no recommended_by (nor an ignored source).
 */
export async function attributeViews(
  trx: Transaction<Database>,
  drafts: readonly EventDraft[],
  sources: readonly ViewAttributionSource[],
  now: number,
): Promise<readonly EventDraft[]> {
  const views = drafts.filter((d) => d.event === 'view' && !d.custom && d.did !== null);
  if (sources.length === 0 || views.length === 0) return drafts;
  const didsByShop = new Map<string, Set<string>>();
  for (const d of views) didsByShop.set(d.shopId, (didsByShop.get(d.shopId) ?? new Set()).add(d.did as string));
  const found = new Map<string, ViewAttribution>();
  for (const source of sources) {
    for (const [shopId, dids] of didsByShop) {
      const open = [...dids].filter((did) => !found.has(`${shopId}/${did}`));
      if (open.length === 0) continue;
      for (const [did, attribution] of await source.takeForViews(trx, shopId, open, now)) found.set(`${shopId}/${did}`, attribution);
    }
  }
  if (found.size === 0) return drafts;
  return drafts.map((d) => {
    const key = `${d.shopId}/${d.did ?? ''}`;
    const attribution = d.event === 'view' && !d.custom ? found.get(key) : undefined;
    if (!attribution) return d;
    found.delete(key);
    if (d.params.recommended_by !== undefined) return d;
    const { recommendedBy, recommendedCode } = attribution;
    return {
      ...d,
      recommendedBy,
      recommendedCode,
      params: { ...d.params, recommended_by: recommendedBy, recommended_code: recommendedCode },
    };
  });
}
