import type { Language } from '../i18n/i18n';

/**
 * An instant of the people screens, with its zone named: the shop's zone when the thing
 * belongs to a shop (an audit entry of a shop), else UTC (a user, a token, a session: they
 * belong to no shop, and the reader's zone would differ between two people comparing notes).
 */
export function formatAt(iso: string, timezone: string | null, language: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'long',
    timeZone: timezone ?? 'UTC',
  }).format(date);
}
