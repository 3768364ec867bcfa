import type { AudienceService } from '../audience/index.js';
import type { IdentityService } from '../identity/index.js';

/**
 * The `profile` a template renders with (docs/messaging-templates.md): the recipient's
 * custom properties, the fields of its audience record, and its identifiers; never its push
 * tokens. The one place that builds it: the delivery of every message and the template
 * editor's preview of a real customer read it here, so what the preview shows is what the
 * customer would get. Undefined when the shop has no such profile.
 */
export async function readProfileScope(
  deps: {
    readonly identity: Pick<IdentityService, 'getProfileOnly'>;
    readonly audience: Pick<AudienceService, 'getLiveCustomerAttributes'>;
  },
  shopId: string,
  profileId: number,
): Promise<Record<string, unknown> | undefined> {
  const profile = await deps.identity.getProfileOnly(shopId, profileId);
  if (!profile) return undefined;
  const attributes = await deps.audience.getLiveCustomerAttributes(shopId, profile.id, { pushTokens: false });
  return {
    ...profile.properties,
    ...attributes?.fields,
    email: profile.email,
    phone: profile.phone,
    external_id: profile.externalId,
    loyalty_id: profile.loyaltyId,
    telegram_id: profile.telegramId,
  };
}

/** The profile's locale, as the scope holds it (a custom property or record field named `locale`). */
export function localeOf(scope: Readonly<Record<string, unknown>>): string | undefined {
  return typeof scope.locale === 'string' && scope.locale !== '' ? scope.locale : undefined;
}
