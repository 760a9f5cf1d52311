import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { Locale } from '../../../../shared/integration.js';
import { isTimeZoneName } from '../../../../shared/text.js';
import { useApiClient } from '../../../lib/api-provider.js';
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
 * since), and `saveLanguage` saves the language the user picks. Failures change nothing on the
 * page: the next visit tries again.
 */
export const useSaveLanguageAndTimeZone = (userId: number | undefined) => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const save = useSaveSettingsQuietly();

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
