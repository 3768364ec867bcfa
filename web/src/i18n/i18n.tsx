import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en, type MessageKey, type Messages } from './en';
import { initialLanguage, interpolate, type Language } from './language';
import { ru } from './ru';

export { LANGUAGES, type Language } from './language';

const TABLES: Readonly<Record<Language, Messages>> = { en, ru };
const STORAGE_KEY = 'patron.language';

export type Translate = (key: MessageKey, values?: Readonly<Record<string, string | number>>) => string;

interface I18n {
  readonly language: Language;
  readonly setLanguage: (language: Language) => void;
  readonly t: Translate;
}

const I18nContext = createContext<I18n | null>(null);

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
