import type { Identifiers } from '../../identity/index.js';

/**
 * The shapes of the public member calls (GET /loyalty/members/status, POST
 * /loyalty/members/join; docs/loyalty.md "Public calls").
 */

/** contract-notes "Secrets and errors": the public calls' sentence for an unknown member. */
export const PUBLIC_MEMBER_NOT_FOUND = 'Loyalty program member is not found';

/** Who a public loyalty call is about: a device of the shop, an identifier, or both. */
export interface PublicCustomer {
  readonly did?: string | undefined;
  readonly identifiers: Identifiers;
  /** `first_name` / `last_name` as given, stored as POST /profile/set stores them. */
  readonly names?: Readonly<Record<string, unknown>>;
  /** A join's `referrer_code`: the member who brought this customer (docs/loyalty.md "Referrals"). */
  readonly referrerCode?: string | undefined;
}

/** Whom GET /loyalty/members/status asks about (docs/loyalty.md, "Public calls"). */
export interface StatusQuery {
  readonly did?: string | undefined;
  /** The SDK's `identifier`: a phone, else a loyalty_id. */
  readonly identifier?: string | undefined;
  /** Named identifiers, normalised; read when `identifier` is absent. */
  readonly identifiers: Pick<Identifiers, 'phone' | 'loyaltyId' | 'email'>;
}

/** A member's level as the SDK reads it (docs/loyalty.md "Levels"). */
export interface PublicLevel {
  readonly name: string;
  readonly code: string;
  /** YYYY-MM-DD in the shop's timezone: the day the level drops with no more purchases; null: never. */
  readonly expiration_date: string | null;
}

/** The answer of the public status and join calls: `level` is null for a member without one, and for a non-member. */
export interface PublicMemberStatus {
  readonly member: boolean;
  readonly level: PublicLevel | null;
}
