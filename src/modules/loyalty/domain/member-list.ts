/**
 * The member list's paging and search, pure (docs/loyalty.md, "Admin API").
 */

export interface MemberCursor {
  readonly joinedAt: number;
  readonly profileId: number;
}

/** The position after a member, as an opaque string (base64url of its join time and profile id). */
export function encodeMemberCursor(cursor: MemberCursor): string {
  return Buffer.from(`${cursor.joinedAt}.${cursor.profileId}`, 'utf8').toString('base64url');
}

/** A cursor this API gave out, or undefined for anything else. */
export function decodeMemberCursor(text: string): MemberCursor | undefined {
  if (text.length === 0 || text.length > 64 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const match = /^([0-9]{1,16})\.([0-9]{1,16})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) return undefined;
  const joinedAt = Number(match[1]);
  const profileId = Number(match[2]);
  if (!Number.isSafeInteger(joinedAt) || !Number.isSafeInteger(profileId)) return undefined;
  return { joinedAt, profileId };
}

/** Separators people write phones with (as identity's normalizePhone strips them). */
const PHONE_SEPARATORS = /[\s+\-.()]/g;

/**
 * What a search text `q` is compared with: the start of the loyalty_id as given, and the
 * start of the phone once the separators are taken out, when what is left is digits (a
 * phone prefix cannot be normalised further: "8" may begin a Russian number written the
 * old way or a foreign one).
 */
export function memberSearch(q: string): { readonly prefix: string; readonly phonePrefix: string | undefined } {
  const digits = q.replace(PHONE_SEPARATORS, '');
  return { prefix: q, phonePrefix: /^[0-9]+$/.test(digits) ? digits : undefined };
}
