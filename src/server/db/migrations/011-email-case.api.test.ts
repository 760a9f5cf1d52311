import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/databases.js';

const dialect = inject('database');

describe(`upgrading a database with e-mail addresses in mixed case to 011-email-case (${dialect})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { migrateTo: '010-private-reads' });
  });
  afterAll(async () => database.drop());

  const insertUser = async (name: string, email: string | null): Promise<number> => {
    const row = await sql<{ id: number }>`
      insert into users (role, name, email, created_at)
      values ('candidate', ${name}, ${email}, ${new Date().toISOString()})
      returning id`.execute(database.db.kysely);
    const id = row.rows[0]?.id;
    if (id === undefined) throw new Error('no id');
    return id;
  };
  const emailOf = async (id: number) =>
    (
      await database.db.kysely
        .selectFrom('users')
        .select('email')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).email;

  it('lower-cases every address; of rows that collide one keeps it; the database then refuses a twin in another case', async () => {
    // collide, neither in lower case: the oldest keeps the address
    const linaOld = await insertUser('Lina (first)', 'Lina7@Example.com');
    const linaNew = await insertUser('Lina (second)', 'LINA7@example.com');
    // collide, the newer in lower case: the one sign-in could already find keeps it
    const omarMixed = await insertUser('Omar (mixed)', 'Omar@Example.com');
    const omarLower = await insertUser('Omar (lower)', 'omar@example.com');
    const solo = await insertUser('Solo', 'Solo@Example.COM');
    const lower = await insertUser('Already', 'already@example.com');
    const none1 = await insertUser('No address 1', null);
    const none2 = await insertUser('No address 2', null);

    await database.migrate();

    expect(await emailOf(linaOld)).toBe('lina7@example.com');
    expect(await emailOf(linaNew)).toBeNull();
    expect(await emailOf(omarLower)).toBe('omar@example.com');
    expect(await emailOf(omarMixed)).toBeNull();
    expect(await emailOf(solo)).toBe('solo@example.com');
    expect(await emailOf(lower)).toBe('already@example.com');
    expect(await emailOf(none1)).toBeNull();
    expect(await emailOf(none2)).toBeNull();

    // the database keeps it so, whatever writes to it
    await expect(insertUser('Twin', 'SOLO@example.com')).rejects.toThrow();
    await expect(insertUser('Twin', 'Lina7@EXAMPLE.com')).rejects.toThrow();
    expect(await insertUser('Another', 'another@example.com')).toBeGreaterThan(0);
    expect(await insertUser('No address 3', null)).toBeGreaterThan(0);
  });
});
