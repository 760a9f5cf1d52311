import type { Db, Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** The switches and time zone (`user_settings`); the language is the user's own `users.locale`. */
export type SettingsValues = Omit<Database['user_settings'], 'user_id' | 'updated_at'>;
export type StoredLocale = Database['users']['locale'];

const SETTINGS_COLUMNS = [
  'email_notifications',
  'read_receipts',
  'show_online',
  'browser_notifications',
  'time_zone',
] as const;

/**
 * All SQL of a user's settings: one `user_settings` row per user (none until first changed) and
 * the user's language, `users.locale`, the one value the host's integration API writes too.
 */
export const createSettingsRepository = (_db: Db) => ({
  /**
   * The user's settings row (undefined columns: no row yet) and their language (null: never set);
   * undefined: no such user.
   */
  findSettings: (executor: Executor, userId: number) =>
    executor
      .selectFrom('users as u')
      .leftJoin('user_settings as s', 's.user_id', 'u.id')
      .select([...SETTINGS_COLUMNS.map((column) => `s.${column}` as const), 'u.locale'])
      .where('u.id', '=', userId)
      .executeTakeFirst(),

  /** The user's language as stored (null: never set; undefined: no such user). */
  findLocale: async (executor: Executor, userId: number): Promise<StoredLocale | undefined> =>
    (
      await executor
        .selectFrom('users')
        .select('locale')
        .where('id', '=', userId)
        .executeTakeFirst()
    )?.locale,

  /** Sets the user's language (the same column the host's `PUT` writes: the last write wins). */
  saveLocale: async (executor: Executor, userId: number, locale: StoredLocale): Promise<void> => {
    await executor.updateTable('users').set({ locale }).where('id', '=', userId).execute();
  },

  /**
   * Creates the row from `created` or, when it exists, changes only the columns in `changed` (one
   * statement, so concurrent changes of different switches both survive).
   */
  saveSettings: async (
    executor: Executor,
    userId: number,
    created: SettingsValues,
    changed: Partial<SettingsValues>,
    now: string,
  ): Promise<void> => {
    await executor
      .insertInto('user_settings')
      .values({ user_id: userId, ...created, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...changed, updated_at: now }))
      .execute();
  },
});

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
