/**
 * Writes that share a commit (SQLite group commit) stay each other's strangers: a unit
 * that fails is undone alone and its caller gets its own error; the others are stored.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test-support/databases.js';
import { createWriteBatcher } from './write-batcher.js';

const dialect = inject('database');

describe(`writes sharing a commit (${dialect})`, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => database.drop());

  const keys = async (prefix: string) =>
    (
      await database.db.kysely
        .selectFrom('outbox')
        .select('dedupe_key')
        .where('dedupe_key', 'like', `${prefix}%`)
        .orderBy('dedupe_key')
        .execute()
    ).map((row) => row.dedupe_key);

  it('undoes a failing unit alone, commits the others, and answers each caller with its own outcome', async () => {
    const writes = createWriteBatcher(database.db.kysely, database.db.dialect);
    const now = new Date().toISOString();
    const insert = (key: string) => (trx: Parameters<Parameters<typeof writes.run>[0]>[0]) =>
      trx
        .insertInto('outbox')
        .values({ kind: 'test', dedupe_key: key, payload: '{}', run_at: now, created_at: now })
        .execute();
    const failure = new Error('this unit fails after writing');
    // a row stored before: the third unit's constraint error does not depend on which of the
    // units (their own transactions on PostgreSQL) reaches the database first
    await database.db.kysely
      .insertInto('outbox')
      .values({ kind: 'test', dedupe_key: 'stored:x', payload: '{}', run_at: now, created_at: now })
      .execute();
    const outcomes = await Promise.allSettled([
      writes.run(async (trx) => {
        await insert('batch:a')(trx);
        return 'a';
      }),
      writes.run(async (trx) => {
        await insert('batch:b1')(trx);
        await insert('batch:b2')(trx);
        throw failure;
      }),
      // a constraint error of the database itself, after the unit wrote something
      writes.run(async (trx) => {
        await insert('batch:c')(trx);
        await insert('stored:x')(trx);
      }),
      writes.run(async (trx) => {
        await insert('batch:d')(trx);
        return 'd';
      }),
    ]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 'a' });
    expect(outcomes[1]).toEqual({ status: 'rejected', reason: failure });
    expect(outcomes[2]?.status).toBe('rejected');
    expect(outcomes[3]).toEqual({ status: 'fulfilled', value: 'd' });
    expect(await keys('batch:')).toEqual(['batch:a', 'batch:d']);
  });

  it('stores every one of many units sent at once', async () => {
    const writes = createWriteBatcher(database.db.kysely, database.db.dialect);
    const now = new Date().toISOString();
    const written = await Promise.all(
      Array.from({ length: 150 }, (_, index) =>
        writes.run(async (trx) => {
          const key = `many:${String(index).padStart(3, '0')}`;
          await trx
            .insertInto('outbox')
            .values({ kind: 'test', dedupe_key: key, payload: '{}', run_at: now, created_at: now })
            .execute();
          return key;
        }),
      ),
    );
    expect(await keys('many:')).toEqual(written);
    const ids = await database.db.kysely
      .selectFrom('outbox')
      .select('id')
      .where('dedupe_key', 'like', 'many:%')
      .orderBy('dedupe_key')
      .execute();
    // SQLite runs them one after the other (PostgreSQL in parallel transactions: any order)
    if (dialect === 'sqlite') expect(ids).toEqual([...ids].sort((a, b) => a.id - b.id));
  });
});
