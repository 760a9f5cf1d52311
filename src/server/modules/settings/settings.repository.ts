import type { Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

export type SettingsValues = Omit<Database['user_settings'], 'user_id' | 'updated_at'>;

const SETTINGS_COLUMNS = [
  'email_notifications',
  'read_receipts',
  'show_online',
  'browser_notifications',
] as const;

/** All SQL of a user's settings (one row per user, none until first changed). */
export const createSettingsRepository = () => ({
  findSettings: (executor: Executor, userId: number) =>
    executor
      .selectFrom('user_settings')
      .select(SETTINGS_COLUMNS)
      .where('user_id', '=', userId)
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
