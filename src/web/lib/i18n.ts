import i18next, { type i18n as I18n, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';

export const SUPPORTED_LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'messenger.lang';
const RTL_LANGUAGES: ReadonlySet<string> = new Set(['ar']);

export const isSupportedLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);

const safeStorage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

export const rememberLanguage = (language: Language): void => {
  try {
    safeStorage()?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // storage full or blocked: the choice just isn't remembered
  }
};

/** `?lang=` (remembered), else the remembered choice, else the browser's language, else English. */
export const detectLanguage = (
  search: string = typeof location === 'undefined' ? '' : location.search,
  browserLanguages: readonly string[] = typeof navigator === 'undefined'
    ? []
    : navigator.languages?.length
      ? navigator.languages
      : [navigator.language],
): Language => {
  const fromQuery = new URLSearchParams(search).get('lang');
  if (isSupportedLanguage(fromQuery)) {
    rememberLanguage(fromQuery);
    return fromQuery;
  }
  const remembered = safeStorage()?.getItem(LANGUAGE_STORAGE_KEY);
  if (isSupportedLanguage(remembered)) return remembered;
  for (const tag of browserLanguages) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isSupportedLanguage(base)) return base;
  }
  return FALLBACK_LANGUAGE;
};

export const directionOf = (language: string): 'rtl' | 'ltr' =>
  RTL_LANGUAGES.has(language) ? 'rtl' : 'ltr';

/** `<html lang dir>` follow the active language. */
export const applyDocumentLanguage = (language: string): void => {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
};

export type LoadTranslations = (language: Language) => Promise<ResourceLanguage>;

/** Fetches `/lang/{language}.json` (served from src/web/public/lang). */
export const fetchTranslations: LoadTranslations = async (language) => {
  const response = await fetch(`/lang/${language}.json`, {
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`Could not load /lang/${language}.json (${response.status})`);
  return (await response.json()) as ResourceLanguage;
};

export interface CreateI18nOptions {
  language: Language;
  /** Preloaded translations (tests); anything missing is fetched with `load`. */
  resources?: Partial<Record<Language, ResourceLanguage>>;
  load?: LoadTranslations;
}

const ensureLoaded = async (
  instance: I18n,
  language: Language,
  load: LoadTranslations,
): Promise<void> => {
  if (instance.hasResourceBundle(language, 'translation')) return;
  try {
    instance.addResourceBundle(language, 'translation', await load(language), true, true);
  } catch (error) {
    console.error(error);
  }
};

export interface AppI18n {
  i18n: I18n;
  /** Loads the language's file when needed, switches, remembers it and updates `<html>`. */
  changeLanguage(language: Language): Promise<void>;
}

export const createI18n = async ({
  language,
  resources = {},
  load = fetchTranslations,
}: CreateI18nOptions): Promise<AppI18n> => {
  const instance = i18next.createInstance();
  instance.use(initReactI18next);
  instance.on('languageChanged', applyDocumentLanguage);
  await instance.init({
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    resources: Object.fromEntries(
      Object.entries(resources).map(([lng, translation]) => [lng, { translation }]),
    ),
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  await Promise.all([
    ensureLoaded(instance, language, load),
    ensureLoaded(instance, FALLBACK_LANGUAGE, load),
  ]);
  applyDocumentLanguage(language);

  return {
    i18n: instance,
    async changeLanguage(next) {
      await ensureLoaded(instance, next, load);
      await instance.changeLanguage(next);
      rememberLanguage(next);
      if (typeof location !== 'undefined' && typeof history !== 'undefined') {
        const url = new URL(location.href);
        if (url.searchParams.has('lang')) {
          url.searchParams.set('lang', next);
          history.replaceState(history.state, '', url);
        }
      }
    },
  };
};
