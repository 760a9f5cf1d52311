import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/databases.js';

const dialect = inject('database');

describe(`upgrading a database with two languages per user to 017-one-locale (${dialect})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { migrateTo: '016-message-search' });
  });
  afterAll(async () => database.drop());

  /** A user as 016 kept them: the host's `users.locale`, and (with a row) the user's own choice. */
  const insertUser = async (
    name: string,
    hostLocale: string | null,
    settings?: { locale: string | null; time_zone: string | null; show_online: number },
  ): Promise<number> => {
    const now = new Date().toISOString();
    const row = await sql<{ id: number }>`
      insert into users (role, name, email, created_at, locale)
      values ('candidate', ${name}, ${null}, ${now}, ${hostLocale})
      returning id`.execute(database.db.kysely);
    const id = row.rows[0]?.id;
    if (id === undefined) throw new Error('no id');
    if (settings)
      await sql`
        insert into user_settings
          (user_id, email_notifications, read_receipts, show_online, browser_notifications,
           locale, time_zone, updated_at)
        values (${id}, 1, 1, ${settings.show_online}, 0, ${settings.locale}, ${settings.time_zone}, ${now})`.execute(
        database.db.kysely,
      );
    return id;
  };

  it('keeps each user’s language in `users.locale` (their own choice where both were set), and the settings’ other values', async () => {
    const both = await insertUser('Host ar, chose en', 'ar', {
      locale: 'en',
      time_zone: 'Asia/Riyadh',
      show_online: 0,
    });
    const chosenOnly = await insertUser('Chose ar', null, {
      locale: 'ar',
      time_zone: null,
      show_online: 1,
    });
    const hostOnly = await insertUser('Host ar, row without a choice', 'ar', {
      locale: null,
      time_zone: 'Africa/Cairo',
      show_online: 1,
    });
    const noRow = await insertUser('Host en, no settings', 'en');
    const neither = await insertUser('Never set', null);

    await database.migrate();

    const users = await database.db.kysely
      .selectFrom('users')
      .select(['id', 'locale'])
      .where('id', 'in', [both, chosenOnly, hostOnly, noRow, neither])
      .execute();
    expect(Object.fromEntries(users.map((user) => [user.id, user.locale]))).toEqual({
      [both]: 'en',
      [chosenOnly]: 'ar',
      [hostOnly]: 'ar',
      [noRow]: 'en',
      [neither]: null,
    });

    // the switches and time zones are as they were (the old language column stays, unread, for the
    // previous version during a rolling restart)
    const settings = await database.db.kysely
      .selectFrom('user_settings')
      .select([
        'user_id',
        'email_notifications',
        'read_receipts',
        'show_online',
        'browser_notifications',
        'time_zone',
      ])
      .orderBy('user_id')
      .execute();
    expect(settings).toEqual([
      {
        user_id: both,
        email_notifications: 1,
        read_receipts: 1,
        show_online: 0,
        browser_notifications: 0,
        time_zone: 'Asia/Riyadh',
      },
      {
        user_id: chosenOnly,
        email_notifications: 1,
        read_receipts: 1,
        show_online: 1,
        browser_notifications: 0,
        time_zone: null,
      },
      {
        user_id: hostOnly,
        email_notifications: 1,
        read_receipts: 1,
        show_online: 1,
        browser_notifications: 0,
        time_zone: 'Africa/Cairo',
      },
    ]);
  });
});
