import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserSettings, UserSettingsPatch } from '../../../../shared/integration.js';
import { useApi } from '../../../lib/api.js';

export const settingsKeys = { all: ['settings'] as const };
const SAVE_KEY = ['settings', 'save'] as const;

/** The settings `patch` changes, as they were before it (what a failed save puts back). */
const previousValues = (settings: UserSettings, patch: UserSettingsPatch): UserSettingsPatch =>
  Object.fromEntries(
    (Object.keys(patch) as (keyof UserSettings)[]).map((name) => [name, settings[name]]),
  );

/** Settings that work both ways: what the viewer sees of others changes with them. */
const RECIPROCAL: readonly (keyof UserSettings)[] = ['read_receipts', 'show_online'];

interface UseSettingsOptions {
  enabled: boolean;
  /**
   * After a save that changed read receipts or online status: what the viewer sees of others
   * changed too. Called for every such save (a per-call `mutate` callback runs only for the
   * latest call: a change saved while another was on its way would be missed).
   */
  onReciprocalSaved?: (() => void) | undefined;
}

/**
 * The viewer's settings (fetched once `enabled`) and `save`: a change shows at once and is sent;
 * if the server refuses it, only the switches it changed go back, and `saveError` says so.
 */
export const useSettings = ({ enabled, onReciprocalSaved }: UseSettingsOptions) => {
  const api = useApi();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: settingsKeys.all,
    queryFn: async () => (await api.getSettings()).settings,
    enabled,
    staleTime: Infinity,
  });
  const mutation = useMutation({
    mutationKey: SAVE_KEY,
    mutationFn: (patch: UserSettingsPatch) => api.updateSettings(patch),
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
  return {
    settings: query.data,
    loading: query.isPending && enabled,
    loadFailed: query.isError,
    reload: () => void query.refetch(),
    save: mutation.mutate,
    saveError: mutation.isError,
    clearSaveError: mutation.reset,
  };
};
