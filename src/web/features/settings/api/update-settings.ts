import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  UserSettings,
  UserSettingsPatch,
  UserSettingsResponse,
} from '../../../../shared/integration.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';
import { settingsKeys } from './get-settings.js';

/** `PATCH /user/settings` with any subset: the settings as they now are. */
export const updateSettings = (
  client: ApiClient,
  patch: UserSettingsPatch,
): Promise<UserSettingsResponse> => client.patch<UserSettingsResponse>(apiPaths.settings, patch);

const SAVE_KEY = ['settings', 'save'] as const;

/** The settings `patch` changes, as they were before it (what a failed save puts back). */
const previousValues = (settings: UserSettings, patch: UserSettingsPatch): UserSettingsPatch =>
  Object.fromEntries(
    (Object.keys(patch) as (keyof UserSettings)[]).map((name) => [name, settings[name]]),
  );

/** Settings that work both ways: what the viewer sees of others changes with them. */
const RECIPROCAL: readonly (keyof UserSettings)[] = ['read_receipts', 'show_online'];

/**
 * A save from the settings menu: the change shows at once and is sent; if the server refuses it,
 * only the switches it changed go back. `onReciprocalSaved` runs after every save that changed
 * read receipts or online status (what the viewer sees of others changed too; a per-call `mutate`
 * callback runs only for the latest call: a change saved while another was on its way would be
 * missed).
 */
export const useUpdateSettings = (onReciprocalSaved: (() => void) | undefined) => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: SAVE_KEY,
    mutationFn: (patch: UserSettingsPatch) => updateSettings(client, patch),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: settingsKeys.all });
      const current = queryClient.getQueryData<UserSettings>(settingsKeys.all);
      if (!current) return { undo: undefined };
      queryClient.setQueryData<UserSettings>(settingsKeys.all, { ...current, ...patch });
      return { undo: previousValues(current, patch) };
    },
    onSuccess: ({ settings }, patch) => {
      // A later change still on its way would be undone by this (older) answer: it brings its own.
      if (queryClient.isMutating({ mutationKey: SAVE_KEY }) <= 1)
        queryClient.setQueryData<UserSettings>(settingsKeys.all, settings);
      if (RECIPROCAL.some((name) => name in patch)) onReciprocalSaved?.();
    },
    onError: (_error, _patch, context) => {
      const undo = context?.undo;
      if (undo)
        queryClient.setQueryData<UserSettings>(settingsKeys.all, (current) =>
          current ? { ...current, ...undo } : current,
        );
    },
  });
};

/**
 * A save that changes nothing on failure (the language and time zone saved for e-mails): true
 * once saved; the settings the page holds show it.
 */
export const useSaveSettingsQuietly = () => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useCallback(
    async (patch: UserSettingsPatch): Promise<boolean> => {
      try {
        await updateSettings(client, patch);
        queryClient.setQueryData<UserSettings>(settingsKeys.all, (current) =>
          current ? { ...current, ...patch } : current,
        );
        return true;
      } catch {
        return false;
      }
    },
    [client, queryClient],
  );
};
