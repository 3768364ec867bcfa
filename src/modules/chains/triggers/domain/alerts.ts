/**
 * Back in stock and price drop (admin-api.md "Chains and bulk mailings": the
 * `back_in_stock` and `price_drop` triggers). The catalog records one alert per fired
 * product subscription when an import lands (docs/catalog-read.md "Product
 * subscriptions"); a landing starts one run per profile and chain, with every product of
 * that landing the profile was alerted of. Pure: the grouping and the key.
 */
export type AlertTriggerKind = 'back_in_stock' | 'price_drop';

export const ALERT_TRIGGERS: readonly AlertTriggerKind[] = ['back_in_stock', 'price_drop'];

/** Item ids by profile, each profile's in the order given. */
export function itemsByProfile(alerts: readonly { readonly profileId: number; readonly itemId: string }[]): Map<number, string[]> {
  const grouped = new Map<number, string[]>();
  for (const alert of alerts) {
    const items = grouped.get(alert.profileId);
    if (items) items.push(alert.itemId);
    else grouped.set(alert.profileId, [alert.itemId]);
  }
  return grouped;
}

/**
 * One run per chain, profile and landing: the generation names the landing. The profile
 * is in the key because a landing fires for many profiles (keys are unique per chain).
 */
export function alertFiringKey(kind: AlertTriggerKind, generation: number, profileId: number): string {
  return `${kind}/${generation}/${profileId}`;
}
