import { useSettingsQuery } from '../api/get-settings.js';
import { useUpdateSettings } from '../api/update-settings.js';

interface UseSettingsOptions {
  enabled: boolean;
  /** After a save that changed read receipts or online status (see `useUpdateSettings`). */
  onReciprocalSaved?: (() => void) | undefined;
}

/**
 * The viewer's settings (fetched once `enabled`) and `save`: a change shows at once and is sent;
 * if the server refuses it, only the switches it changed go back, and `saveError` says so.
 */
export const useSettings = ({ enabled, onReciprocalSaved }: UseSettingsOptions) => {
  const query = useSettingsQuery(enabled);
  const mutation = useUpdateSettings(onReciprocalSaved);
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
