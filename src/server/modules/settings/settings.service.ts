import type { Kysely } from 'kysely';
import {
  DEFAULT_USER_SETTINGS,
  type UserSettings,
  type UserSettingsPatch,
} from '../../../shared/integration.js';
import type { Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { nowIso } from '../../lib/time.js';
import type { SettingsRepository, SettingsValues } from './settings.repository.js';

export interface SettingsServiceOptions {
  db: Kysely<Database>;
  repository: SettingsRepository;
  /** After `show_online` was changed and saved (presence tells the user's online partners). */
  onShowOnlineChanged?: (userId: number, showOnline: boolean) => Promise<void>;
}

const SETTING_NAMES = Object.keys(DEFAULT_USER_SETTINGS) as (keyof UserSettings)[];

const toSettingsRow = (settings: Partial<UserSettings>): Partial<SettingsValues> => {
  const row: Partial<SettingsValues> = {};
  for (const name of SETTING_NAMES) {
    const value = settings[name];
    if (value !== undefined) row[name] = value ? 1 : 0;
  }
  return row;
};

const fromSettingsRow = (row: SettingsValues): UserSettings => ({
  email_notifications: row.email_notifications === 1,
  read_receipts: row.read_receipts === 1,
  show_online: row.show_online === 1,
  browser_notifications: row.browser_notifications === 1,
});

/** A user's switches (contract Part 2, "User settings"): defaults until changed. */
export const createSettingsService = (options: SettingsServiceOptions) => {
  const { db, repository } = options;

  const settingsOf = async (executor: Executor, userId: number): Promise<UserSettings> => {
    const row = await repository.findSettings(executor, userId);
    return row ? fromSettingsRow(row) : { ...DEFAULT_USER_SETTINGS };
  };

  const updateSettings = async (
    executor: Executor,
    userId: number,
    patch: UserSettingsPatch,
  ): Promise<UserSettings> => {
    const changed = toSettingsRow(patch);
    if (Object.keys(changed).length === 0) return settingsOf(executor, userId);
    const created = toSettingsRow({ ...DEFAULT_USER_SETTINGS, ...patch }) as SettingsValues;
    return fromSettingsRow(
      await repository.saveSettings(executor, userId, created, changed, nowIso()),
    );
  };

  return {
    /** The user's settings (defaults until changed). */
    getSettings: (userId: number) => settingsOf(db, userId),

    /** Changes any subset of the user's settings; the settings as they now are. */
    async updateSettings(userId: number, patch: UserSettingsPatch): Promise<UserSettings> {
      const settings = await updateSettings(db, userId, patch);
      if (patch.show_online !== undefined)
        await options.onShowOnlineChanged?.(userId, settings.show_online);
      return settings;
    },

    /**
     * The same change inside the caller's transaction (the integration API's user upsert); once it
     * is committed, the caller passes a `show_online` change to `showOnlineChanged`.
     */
    updateSettingsIn: updateSettings,

    /** Tells who needs to know that the user now shows (or hides) being online. */
    showOnlineChanged: async (userId: number, showOnline: boolean): Promise<void> =>
      options.onShowOnlineChanged?.(userId, showOnline),
  };
};

export type SettingsService = ReturnType<typeof createSettingsService>;
