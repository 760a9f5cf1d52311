import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/databases.js';
import { seedDemo } from '../seed.js';

const dialect = inject('database');

describe(`upgrading a database with users to 003-integration (${dialect})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { migrateTo: '002-hardening' });
  });
  afterAll(async () => database.drop());

  const snapshot = async () => {
    const db = database.db.kysely;
    const users = await db
      .selectFrom('users')
      .select(['id', 'role', 'name', 'email', 'password_hash', 'image_url', 'logo', 'created_at'])
      .orderBy('id')
      .execute();
    const chats = await db.selectFrom('chats').select(['id', 'sender_id']).orderBy('id').execute();
    return { users, chats };
  };

  it('keeps every user and message, and the foreign keys still hold', async () => {
    expect(await seedDemo(database.db)).toBe(true);
    const before = await snapshot();
    expect(before.users.length).toBeGreaterThan(0);

    await database.migrate();
    expect(await snapshot()).toEqual(before);

    const db = database.db.kysely;
    // new columns, optional e-mail and password
    const { id } = await db
      .insertInto('users')
      .values({
        role: 'candidate',
        name: 'From the host',
        email: null,
        password_hash: null,
        image_url: null,
        logo: null,
        created_at: new Date().toISOString(),
        external_id: 'cand-1',
        locale: 'ar',
        erased_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(id).toBeGreaterThan(before.users.at(-1)?.id ?? 0);
    // external ids are unique
    await expect(
      db
        .insertInto('users')
        .values({
          role: 'company',
          name: 'Twin',
          email: null,
          password_hash: null,
          image_url: null,
          logo: null,
          created_at: new Date().toISOString(),
          external_id: 'cand-1',
          locale: null,
          erased_at: null,
        })
        .execute(),
    ).rejects.toThrow();
    // a session for a user who does not exist is still refused
    await expect(
      db
        .insertInto('sessions')
        .values({
          id: 'x',
          user_id: 999_999,
          csrf_token: 'y',
          created_at: new Date().toISOString(),
          expires_at: new Date().toISOString(),
        })
        .execute(),
    ).rejects.toThrow();
    // and deleting a user still removes what hangs on it
    const sender = before.chats[0]?.sender_id;
    expect(sender).toBeDefined();
    await db
      .deleteFrom('users')
      .where('id', '=', sender ?? 0)
      .execute();
    const left = await sql<{
      n: number;
    }>`select count(*) as n from chats where sender_id = ${sender}`.execute(db);
    expect(Number(left.rows[0]?.n)).toBe(0);
  });
});
