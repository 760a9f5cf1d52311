import type { Kysely } from 'kysely';
import {
  DEFAULT_USER_SETTINGS,
  type Locale,
  type UserSettings,
  type UserSettingsPatch,
} from '../../../shared/integration.js';
import type { Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { nowIso } from '../../lib/time.js';
import type { ModuleEventBus } from '../module-events.js';
import type { SettingsRepository, SettingsValues } from './settings.repository.js';

export interface SettingsServiceOptions {
  db: Kysely<Database>;
  repository: SettingsRepository;
  /** Told `showOnlineChanged` once a change of `show_online` is saved (presence tells the partners). */
  events?: Pick<ModuleEventBus, 'emit'>;
}

const SWITCHES = [
  'email_notifications',
  'read_receipts',
  'show_online',
  'browser_notifications',
] as const;

/** The columns `patch` changes (switches as 0/1). */
const toSettingsRow = (patch: UserSettingsPatch): Partial<SettingsValues> => {
  const row: Partial<SettingsValues> = {};
  for (const name of SWITCHES) {
    const value = patch[name];
    if (value !== undefined) row[name] = value ? 1 : 0;
  }
  if (patch.locale !== undefined) row.locale = patch.locale;
  if (patch.time_zone !== undefined) row.time_zone = patch.time_zone;
  return row;
};

/** A new row: the defaults, the language and time zone unset (null) unless `patch` sets them. */
const newSettingsRow = (patch: UserSettingsPatch): SettingsValues => ({
  email_notifications: 1,
  read_receipts: 1,
  show_online: 1,
  browser_notifications: 0,
  locale: null,
  time_zone: null,
  ...toSettingsRow(patch),
});

type StoredSettings = {
  [K in keyof SettingsValues]: SettingsValues[K] | null;
} & { host_locale: Locale | null };

const fromSettingsRow = (row: StoredSettings | undefined): UserSettings => {
  const flag = (name: (typeof SWITCHES)[number]) => {
    const value = row?.[name];
    return value === null || value === undefined ? DEFAULT_USER_SETTINGS[name] : value === 1;
  };
  return {
    email_notifications: flag('email_notifications'),
    read_receipts: flag('read_receipts'),
    show_online: flag('show_online'),
    browser_notifications: flag('browser_notifications'),
    locale: row?.locale ?? row?.host_locale ?? DEFAULT_USER_SETTINGS.locale,
    time_zone: row?.time_zone ?? DEFAULT_USER_SETTINGS.time_zone,
  };
};

/** A user's switches, language and time zone: defaults until changed. */
export const createSettingsService = (options: SettingsServiceOptions) => {
  const { db, repository } = options;

  const settingsOf = async (executor: Executor, userId: number): Promise<UserSettings> =>
    fromSettingsRow(await repository.findSettings(executor, userId));

  const updateSettings = async (
    executor: Executor,
    userId: number,
    patch: UserSettingsPatch,
  ): Promise<UserSettings> => {
    const changed = toSettingsRow(patch);
    if (Object.keys(changed).length === 0) return settingsOf(executor, userId);
    const saved = await repository.saveSettings(
      executor,
      userId,
      newSettingsRow(patch),
      changed,
      nowIso(),
    );
    // the language falls back to the host's: read again only when the user never picked one
    return saved.locale === null
      ? settingsOf(executor, userId)
      : fromSettingsRow({ ...saved, host_locale: null });
  };

  return {
    /** The user's settings (defaults until changed). */
    getSettings: (userId: number) => settingsOf(db, userId),

    /** Changes any subset of the user's settings; the settings as they now are. */
    async updateSettings(userId: number, patch: UserSettingsPatch): Promise<UserSettings> {
      const settings = await updateSettings(db, userId, patch);
      if (patch.show_online !== undefined)
        await options.events?.emit('showOnlineChanged', {
          userId,
          showOnline: settings.show_online,
        });
      return settings;
    },

    /**
     * The same change inside the caller's transaction (the integration API's user upsert); once it
     * is committed, the caller passes a `show_online` change to `showOnlineChanged`.
     */
    updateSettingsIn: updateSettings,

    /** Tells who needs to know that the user now shows (or hides) being online. */
    showOnlineChanged: async (userId: number, showOnline: boolean): Promise<void> =>
      options.events?.emit('showOnlineChanged', { userId, showOnline }),
  };
};

export type SettingsService = ReturnType<typeof createSettingsService>;
