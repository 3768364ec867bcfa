/**
 * The credential of an `Authorization: <scheme> <credential>` header (RFC 7235 §2.1: the
 * scheme name is case-insensitive; white space around the credential is tolerated). The
 * admin API's `Bearer` admin token, the messaging webhooks' `Bearer` secret and Apple
 * Wallet's `ApplePass` pass token are all read here. Undefined when the header is absent,
 * of another scheme, holds more than one word, or a credential longer than `maxLength`.
 */
export function schemeCredential(header: string | undefined, scheme: 'Bearer' | 'ApplePass', maxLength = 512): string | undefined {
  if (header === undefined || header.length > scheme.length + maxLength + 64) return undefined;
  const match = /^(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match || match[1]?.toLowerCase() !== scheme.toLowerCase()) return undefined;
  const credential = match[2] ?? '';
  return credential.length <= maxLength ? credential : undefined;
}
