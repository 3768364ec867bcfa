export type Language = 'en' | 'ru';
export const LANGUAGES: readonly Language[] = ['en', 'ru'];

/** The user's own choice, kept in this browser; otherwise the browser's first language we speak. */
export function initialLanguage(stored: string | null, browser: readonly string[]): Language {
  if (stored === 'en' || stored === 'ru') return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'en' || base === 'ru') return base;
  }
  return 'en';
}

/** Fills `{name}` marks; a mark without a value stays visible, so a missing value is noticed. */
export function interpolate(text: string, values?: Readonly<Record<string, string | number>>): string {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (mark, name: string) => (name in values ? String(values[name]) : mark));
}
