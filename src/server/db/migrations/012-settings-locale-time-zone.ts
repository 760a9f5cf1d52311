import type { Kysely } from 'kysely';

/**
 * Settings gain the language the user picked on the page and their time zone: notification e-mails use both. Null until the user (or the host, for the time
 * zone) sets them: the language then falls back to `users.locale` (the host's), then English; the
 * time zone to UTC.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('user_settings').addColumn('locale', 'text').execute();
  await db.schema.alterTable('user_settings').addColumn('time_zone', 'text').execute();
};
