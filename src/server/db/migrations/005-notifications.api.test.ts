import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/databases.js';
import { seedDemo } from '../seed.js';

const dialect = inject('database');

describe(`upgrading a database with messages to 005-notifications (${dialect})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { migrateTo: '004-outbox' });
  });
  afterAll(async () => database.drop());

  it('counts messages already unread as handled, so the next new one does not e-mail them', async () => {
    expect(await seedDemo(database.db)).toBe(true);
    await database.migrate();
    const chats = await database.db.kysely
      .selectFrom('chats')
      .select(['seen_at', 'notified_at'])
      .execute();
    const unread = chats.filter((chat) => chat.seen_at === null);
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.every((chat) => chat.notified_at !== null)).toBe(true);
    expect(
      chats.filter((chat) => chat.seen_at !== null).every((chat) => chat.notified_at === null),
    ).toBe(true);
  });
});
