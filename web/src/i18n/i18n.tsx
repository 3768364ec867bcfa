import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en, type MessageKey, type Messages } from './en';
import { ru } from './ru';

export type Language = 'en' | 'ru';
export const LANGUAGES: readonly Language[] = ['en', 'ru'];
const TABLES: Readonly<Record<Language, Messages>> = { en, ru };
const STORAGE_KEY = 'patron.language';

export type Translate = (key: MessageKey, values?: Readonly<Record<string, string | number>>) => string;

interface I18n {
  readonly language: Language;
  readonly setLanguage: (language: Language) => void;
  readonly t: Translate;
}

const I18nContext = createContext<I18n | null>(null);

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

function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function I18nProvider({ children }: { readonly children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(() => initialLanguage(readStored(), navigator.languages));
  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Private modes may refuse storage: the choice then lasts for this page only.
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const value = useMemo<I18n>(() => {
    const table = TABLES[language];
    return { language, setLanguage, t: (key, values) => interpolate(table[key], values) };
  }, [language, setLanguage]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n outside I18nProvider');
  return i18n;
}
