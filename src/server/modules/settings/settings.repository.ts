import type { Db, Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

export type SettingsValues = Omit<Database['user_settings'], 'user_id' | 'updated_at'>;

const SETTINGS_COLUMNS = [
  'email_notifications',
  'read_receipts',
  'show_online',
  'browser_notifications',
  'locale',
  'time_zone',
] as const;

/** All SQL of a user's settings (one row per user, none until first changed). */
export const createSettingsRepository = (_db: Db) => ({
  /**
   * The user's settings row (undefined columns: no row yet) and the host's language for the user
   * (`host_locale`, what the language falls back to); undefined: no such user.
   */
  findSettings: (executor: Executor, userId: number) =>
    executor
      .selectFrom('users as u')
      .leftJoin('user_settings as s', 's.user_id', 'u.id')
      .select([
        ...SETTINGS_COLUMNS.map((column) => `s.${column}` as const),
        'u.locale as host_locale',
      ])
      .where('u.id', '=', userId)
      .executeTakeFirst(),

  /**
   * Creates the row from `created` or, when it exists, changes only the columns in `changed` (one
   * statement, so concurrent changes of different switches both survive); the row as it now is.
   */
  saveSettings: (
    executor: Executor,
    userId: number,
    created: SettingsValues,
    changed: Partial<SettingsValues>,
    now: string,
  ) =>
    executor
      .insertInto('user_settings')
      .values({ user_id: userId, ...created, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...changed, updated_at: now }))
      .returning(SETTINGS_COLUMNS)
      .executeTakeFirstOrThrow(),
});

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
