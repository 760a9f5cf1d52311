import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { Locale, UserSettings, UserSettingsPatch } from '../../../../shared/integration.js';
import { isTimeZoneName } from '../../../../shared/text.js';
import { useApi } from '../../../lib/api.js';
import { settingsKeys } from './use-settings.js';

const savedZoneKey = (userId: number) => `messenger.timeZone.${userId}`;

const storage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

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
 * signed in, the browser's time zone is saved (again only when it changed in this browser), and
 * `saveLanguage` saves the language the user picks. Failures change nothing on the page: the next
 * visit tries again.
 */
export const useSaveLanguageAndTimeZone = (userId: number | undefined) => {
  const api = useApi();
  const queryClient = useQueryClient();

  /** Saves `patch`; settings the menu already holds show it (none are fetched for this). */
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
    if (zone === undefined || storage()?.getItem(savedZoneKey(userId)) === zone) return;
    void save({ time_zone: zone }).then((saved) => {
      try {
        if (saved) storage()?.setItem(savedZoneKey(userId), zone);
      } catch {
        // not remembered: saved again next time
      }
    });
  }, [userId, save]);

  return {
    saveLanguage: useCallback((locale: Locale) => void save({ locale }), [save]),
  };
};
