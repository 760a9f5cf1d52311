import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { Locale, UserSettings, UserSettingsPatch } from '../../../../shared/integration.js';
import { isTimeZoneName } from '../../../../shared/text.js';
import { useApi } from '../../../lib/api.js';
import { settingsKeys } from './use-settings.js';

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
 * Notification e-mails are written in the user's language and time zone (contract Part 3): once
 * signed in, the browser's time zone is saved when it is not the one the server holds (the
 * settings, fetched once and kept for the settings menu: another device may have saved its own
 * since), and `saveLanguage` saves the language the user picks. Failures change nothing on the
 * page: the next visit tries again.
 */
export const useSaveLanguageAndTimeZone = (userId: number | undefined) => {
  const api = useApi();
  const queryClient = useQueryClient();

  /** Saves `patch`; settings the page already holds show it. */
  const save = useCallback(
    async (patch: UserSettingsPatch): Promise<boolean> => {
      try {
        await api.updateSettings(patch);
        queryClient.setQueryData<UserSettings>(settingsKeys.all, (current) =>
          current ? { ...current, ...patch } : current,
        );
        return true;
      } catch {
        return false;
      }
    },
    [api, queryClient],
  );

  useEffect(() => {
    if (userId === undefined) return;
    const zone = browserTimeZone();
    if (zone === undefined) return;
    let gone = false;
    queryClient
      .fetchQuery({
        queryKey: settingsKeys.all,
        queryFn: async () => (await api.getSettings()).settings,
        staleTime: Infinity,
      })
      .then(
        (settings) => {
          if (!gone && settings.time_zone !== zone) void save({ time_zone: zone });
        },
        () => undefined, // not known: the next visit asks again
      );
    return () => {
      gone = true;
    };
  }, [userId, api, queryClient, save]);

  return {
    saveLanguage: useCallback((locale: Locale) => void save({ locale }), [save]),
  };
};
