/**
 * The audit log's keyset cursor, pure: the id of the last entry of a page, as an opaque
 * string (base64url), so that a client never builds one and the key can change later.
 */

export function encodeAuditCursor(id: number): string {
  return Buffer.from(`a${id}`, 'utf8').toString('base64url');
}

/** The id a cursor of this API carries, or undefined for anything else. */
export function decodeAuditCursor(text: string): number | undefined {
  if (text.length === 0 || text.length > 32 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const match = /^a([1-9][0-9]{0,15})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) return undefined;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : undefined;
}
