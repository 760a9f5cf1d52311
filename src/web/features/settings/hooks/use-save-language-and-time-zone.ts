import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { Locale } from '../../../../shared/integration.js';
import { isTimeZoneName } from '../../../../shared/text.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { forgetLanguageInUrl, languageFromQuery } from '../../../lib/i18n.js';
import { useServices } from '../../../lib/services.js';
import { settingsQueryOptions } from '../api/get-settings.js';
import { useSaveSettingsQuietly } from '../api/update-settings.js';

/** The browser's IANA time zone (undefined when it has none this page can send). */
const browserTimeZone = (): string | undefined => {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && isTimeZoneName(zone) ? zone : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Notification e-mails are written in the user's language and time zone (docs/notifications.md): once
 * signed in, the browser's time zone is saved when it is not the one the server holds (the
 * settings, fetched once and kept for the settings menu: another device may have saved its own
 * since), and `saveLanguage` saves the language the user picks. The language is the user's one
 * `locale` (docs/language.md): a page opened with `?lang=` saves it too, then drops `lang` from the
 * address (the saved locale says it from then on, on every device). Failures change nothing on the
 * page: the next visit tries again.
 */
export const useSaveLanguageAndTimeZone = (userId: number | undefined) => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const save = useSaveSettingsQuietly();
  const { initialSearch } = useServices();

  useEffect(() => {
    if (userId === undefined) return;
    const asked = languageFromQuery(initialSearch);
    if (asked === undefined) return;
    let gone = false;
    void save({ locale: asked }).then((saved) => {
      if (saved && !gone) forgetLanguageInUrl();
    });
    return () => {
      gone = true;
    };
  }, [userId, initialSearch, save]);

  useEffect(() => {
    if (userId === undefined) return;
    const zone = browserTimeZone();
    if (zone === undefined) return;
    let gone = false;
    queryClient.fetchQuery(settingsQueryOptions(client)).then(
      (settings) => {
        if (!gone && settings.time_zone !== zone) void save({ time_zone: zone });
      },
      () => undefined, // not known: the next visit asks again
    );
    return () => {
      gone = true;
    };
  }, [userId, client, queryClient, save]);

  return {
    saveLanguage: useCallback((locale: Locale) => void save({ locale }), [save]),
  };
};
