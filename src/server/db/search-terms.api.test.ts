/**
 * The send's term writer (SQLite): a word is asked for again until a commit stored it, so a unit
 * undone (or a failed commit) never leaves a word remembered but missing from the terms table.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test-support/databases.js';
import { createSqliteTermWriter } from './search-index.js';
import { createWriteBatcher } from './write-batcher.js';

const dialect = inject('database');

describe.runIf(dialect === 'sqlite')('the send’s search terms (sqlite)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => database.drop());

  const stored = async () =>
    (
      await database.db.kysely
        .selectFrom('chats_search_terms')
        .select('term')
        .orderBy('term')
        .execute()
    ).map((row) => row.term);

  it('writes the new words of each message, and a word of an undone unit again later', async () => {
    const { kysely } = database.db;
    const writes = createWriteBatcher(kysely, 'sqlite');
    const terms = createSqliteTermWriter(kysely);
    const write = (document: string, fail = false) =>
      terms.inTransaction((opened) =>
        writes.run(async (trx) => {
          opened(trx);
          await terms.add(trx, document);
          if (fail) throw new Error('this unit fails after writing its words');
        }),
      );

    const outcomes = await Promise.allSettled([
      write('hello world'),
      write('lost words', true),
      write('world peace'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(await stored()).toEqual(['hello', 'peace', 'world']);

    // "lost" and "words" were undone with their unit: asked for (and stored) again
    await write('lost words hello');
    expect(await stored()).toEqual(['hello', 'lost', 'peace', 'words', 'world']);

    // known words are not asked for again: a word taken out behind its back stays out
    await kysely.deleteFrom('chats_search_terms').where('term', '=', 'hello').execute();
    await write('hello peace');
    expect(await stored()).toEqual(['lost', 'peace', 'words', 'world']);
  });
});
