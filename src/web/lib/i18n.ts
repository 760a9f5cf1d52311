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

/** `?lang=` of `search` when it names a supported language. */
export const languageFromQuery = (search: string): Language | undefined => {
  const value = new URLSearchParams(search).get('lang');
  return isSupportedLanguage(value) ? value : undefined;
};

/**
 * The first supported language of, in order: `query` (`?lang=`), `saved`, the browser's languages
 * (by their base, `ar-EG` → `ar`), else English (docs/language.md).
 */
export const chooseLanguage = (
  query: string | null | undefined,
  saved: string | null | undefined,
  browserLanguages: readonly string[],
): Language => {
  if (isSupportedLanguage(query)) return query;
  if (isSupportedLanguage(saved)) return saved;
  for (const tag of browserLanguages) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isSupportedLanguage(base)) return base;
  }
  return FALLBACK_LANGUAGE;
};

const browserLanguagesNow = (): readonly string[] =>
  typeof navigator === 'undefined'
    ? []
    : navigator.languages?.length
      ? navigator.languages
      : [navigator.language];

const searchNow = (): string => (typeof location === 'undefined' ? '' : location.search);

/**
 * The user's saved `locale`, as the server put it into the messaging page it served
 * (`<html data-user-locale>`, src/server/modules/pages): known before the first paint.
 */
export const savedLocaleOfPage = (): Language | undefined => {
  if (typeof document === 'undefined') return undefined;
  const value = document.documentElement.dataset.userLocale;
  return isSupportedLanguage(value) ? value : undefined;
};

/**
 * The messaging page's language: `?lang=` (the page then saves it as the user's `locale`), else the
 * user's saved `locale`, else the browser's language, else English. `?lang=` is also remembered
 * in this browser, for the sign-in page.
 */
export const detectPageLanguage = (
  search: string = searchNow(),
  browserLanguages: readonly string[] = browserLanguagesNow(),
  saved: string | null | undefined = savedLocaleOfPage(),
): Language => {
  const fromQuery = languageFromQuery(search);
  if (fromQuery) rememberLanguage(fromQuery);
  return chooseLanguage(fromQuery, saved, browserLanguages);
};

/**
 * The sign-in page's language (no user yet): `?lang=` (remembered), else the language last chosen
 * in this browser, else the browser's language, else English.
 */
export const detectLanguage = (
  search: string = searchNow(),
  browserLanguages: readonly string[] = browserLanguagesNow(),
): Language => {
  const fromQuery = languageFromQuery(search);
  if (fromQuery) rememberLanguage(fromQuery);
  return chooseLanguage(fromQuery, safeStorage()?.getItem(LANGUAGE_STORAGE_KEY), browserLanguages);
};

/** The address without `lang` (once the page saved it: the user's `locale` now says it). */
export const forgetLanguageInUrl = (): void => {
  if (typeof location === 'undefined' || typeof history === 'undefined') return;
  const url = new URL(location.href);
  if (!url.searchParams.has('lang')) return;
  url.searchParams.delete('lang');
  history.replaceState(history.state, '', url);
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
