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
import type { SettingsRepository, SettingsValues, StoredLocale } from './settings.repository.js';

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

/** The `user_settings` columns `patch` changes (switches as 0/1; the language is not one). */
const toSettingsRow = (patch: UserSettingsPatch): Partial<SettingsValues> => {
  const row: Partial<SettingsValues> = {};
  for (const name of SWITCHES) {
    const value = patch[name];
    if (value !== undefined) row[name] = value ? 1 : 0;
  }
  if (patch.time_zone !== undefined) row.time_zone = patch.time_zone;
  return row;
};

/** A new row: the defaults, the time zone unset (null) unless `patch` sets it. */
const newSettingsRow = (patch: UserSettingsPatch): SettingsValues => ({
  email_notifications: 1,
  read_receipts: 1,
  show_online: 1,
  browser_notifications: 0,
  time_zone: null,
  ...toSettingsRow(patch),
});

type StoredSettings = {
  [K in keyof SettingsValues]: SettingsValues[K] | null;
} & { locale: StoredLocale };

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
    locale: row?.locale ?? DEFAULT_USER_SETTINGS.locale,
    time_zone: row?.time_zone ?? DEFAULT_USER_SETTINGS.time_zone,
  };
};

/**
 * A user's switches, language and time zone: defaults until changed. The language is the user's
 * one `locale` (docs/language.md): the host's `PUT` and the user's own choice write the same value,
 * and the last write wins.
 */
export const createSettingsService = (options: SettingsServiceOptions) => {
  const { db, repository } = options;

  const settingsOf = async (executor: Executor, userId: number): Promise<UserSettings> =>
    fromSettingsRow(await repository.findSettings(executor, userId));

  /** `work` in one transaction: the caller's, or a new one. */
  const atomically = <T>(executor: Executor, work: (trx: Executor) => Promise<T>): Promise<T> =>
    executor.isTransaction ? work(executor) : executor.transaction().execute(work);

  const updateSettings = async (
    executor: Executor,
    userId: number,
    patch: UserSettingsPatch,
  ): Promise<UserSettings> => {
    const changed = toSettingsRow(patch);
    const changesRow = Object.keys(changed).length > 0;
    if (patch.locale === undefined && !changesRow) return settingsOf(executor, userId);
    const write = async (target: Executor) => {
      if (patch.locale !== undefined) await repository.saveLocale(target, userId, patch.locale);
      if (changesRow)
        await repository.saveSettings(target, userId, newSettingsRow(patch), changed, nowIso());
      return settingsOf(target, userId);
    };
    return patch.locale !== undefined && changesRow ? atomically(executor, write) : write(executor);
  };

  return {
    /** The user's settings (defaults until changed). */
    getSettings: (userId: number) => settingsOf(db, userId),

    /**
     * The user's language as stored: null when neither they nor the host ever set it (the page then
     * follows the browser), undefined when there is no such user.
     */
    savedLocale: (userId: number): Promise<Locale | null | undefined> =>
      repository.findLocale(db, userId),

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
