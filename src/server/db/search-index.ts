import { sql, type Kysely, type RawBuilder } from 'kysely';
import { searchDocument } from '../../shared/search-text.js';
import { prepareQuery, type DialectName, type Executor } from './database.js';
import type { Database } from './schema.js';

/**
 * The full-text index of messages (migration 016), kept in step with `chats` by whoever writes a
 * message's text, in the same transaction (or statement) as the write:
 * - SQLite: the contentless FTS5 table `chats_search`, rowid = the message's id, body = its
 *   `searchDocument` (no row for a deleted message or one without words);
 * - PostgreSQL: `chats.search_vector` = `to_tsvector('simple', searchDocument(message))`, null for a
 *   deleted message or one without words.
 * The document is computed here, in JS, so both databases index exactly the words the page
 * highlights (`src/shared/search-text.ts`).
 */

/**
 * PostgreSQL: the `search_vector` of a message with this text, as an expression of one parameter
 * (the same SQL for every text, so it can sit in a prepared statement): null when it has no word.
 */
export const searchVectorOf = (document: unknown): RawBuilder<string | null> =>
  sql<string | null>`nullif(to_tsvector('simple', ${document}::text), ''::tsvector)`;

/** Writes (or rewrites) the index entry of one message from its current text. */
export const indexMessage = async (
  executor: Executor,
  dialect: DialectName,
  chatId: number,
  text: string,
): Promise<void> => {
  const document = searchDocument(text);
  if (dialect === 'postgres') {
    await sql`update chats set search_vector = ${searchVectorOf(document)} where id = ${chatId}`.execute(
      executor,
    );
    return;
  }
  await sql`delete from chats_search where rowid = ${chatId}`.execute(executor);
  if (document === '') return;
  await sql`insert into chats_search (rowid, body) values (${chatId}, ${document})`.execute(
    executor,
  );
  await addSqliteTerms(executor, document);
};

/**
 * SQLite: every word ever indexed, in `chats_search_terms` (migration 016), so that a query's
 * prefix becomes the exact words it starts ("interview" → interview OR interviews OR
 * interviewed): FTS5 hands out the matches of exact words newest first and stops at the page's
 * end, where a prefix query (`"interview"*`) first merges the matches of every such word in the
 * whole index (tens of milliseconds for a common word on a million messages). Words are only ever
 * added: one no message holds any more matches nothing, at no cost.
 */
export const addSqliteTerms = (executor: Executor, document: string): Promise<unknown> =>
  sql`insert or ignore into chats_search_terms (term) select value from json_each(${JSON.stringify([
    ...new Set(document.split(' ')),
  ])})`.execute(executor);

/** Words remembered as stored by `createSqliteTermWriter` at most (then it starts over). */
const KNOWN_TERMS_MAX = 100_000;

/**
 * SQLite, for the send: `addSqliteTerms` without asking again for the words this process saw
 * committed already (a message's words are mostly words stored before; only the new ones are
 * inserted, and a message of known words writes no terms at all), the statement prepared once.
 * Words are remembered only once the transaction that wrote them committed (`inTransaction`):
 * a unit undone or a failed commit leaves them unknown. Nothing ever deletes a term, and other
 * processes on the same file only add them, so a remembered word stays stored.
 */
export const createSqliteTermWriter = (db: Kysely<Database>) => {
  const known = new Set<string>();
  const written = new WeakMap<Executor, string[]>();
  const insert = prepareQuery(1, (words: string) => ({
    compile: () =>
      sql`insert or ignore into chats_search_terms (term) select value from json_each(${words})`.compile(
        db,
      ),
  }));
  return {
    /** The words of `document` not known to be stored yet, written in the executor's transaction. */
    add: async (executor: Executor, document: string): Promise<void> => {
      const words = [...new Set(document.split(' '))].filter((word) => !known.has(word));
      if (words.length === 0) return;
      await insert(executor, JSON.stringify(words));
      written.get(executor)?.push(...words);
    },
    /** Runs `run` with a transaction; the words `add` wrote in it are known once it resolved (committed). */
    inTransaction: async <T>(run: (work: (trx: Executor) => void) => Promise<T>): Promise<T> => {
      const words: string[] = [];
      const result = await run((trx) => written.set(trx, words));
      if (known.size + words.length > KNOWN_TERMS_MAX) known.clear();
      for (const word of words) known.add(word);
      return result;
    },
  };
};

/** SQLite: the terms table filled from the FTS5 index itself (after a bulk load or a backfill). */
export const REBUILD_SQLITE_TERMS_SQL = [
  `create virtual table if not exists temp.chats_search_vocabulary using fts5vocab(main, chats_search, row)`,
  `insert or ignore into chats_search_terms (term) select term from temp.chats_search_vocabulary`,
  `drop table temp.chats_search_vocabulary`,
] as const;

/** Past this many words starting with one prefix, the prefix itself is asked (`"pr"*`). */
export const PREFIX_TERMS_MAX = 200;

/**
 * SQLite: the MATCH expression of a query's words: each word as the OR of the indexed words it
 * starts (or as a prefix query when there are more than PREFIX_TERMS_MAX), all ANDed; null when a
 * word starts no indexed word (nothing can match).
 */
export const sqliteMatchOf = async (
  executor: Executor,
  words: readonly string[],
): Promise<string | null> => {
  const parts: string[] = [];
  for (const word of words) {
    const { rows } = await sql<{ term: string }>`
      select term from chats_search_terms
      where term >= ${word} and term < ${`${word}\u{10FFFF}`}
      limit ${PREFIX_TERMS_MAX + 1}`.execute(executor);
    if (rows.length === 0) return null;
    parts.push(
      rows.length > PREFIX_TERMS_MAX
        ? `"${word}"*`
        : `(${rows.map((row) => `"${row.term}"`).join(' OR ')})`,
    );
  }
  return parts.join(' AND ');
};

/**
 * Whether the database has the index yet (migration 016): the demo seed also fills databases of
 * older schemas, in the tests of upgrades, and their migration indexes what it finds.
 */
export const hasSearchIndex = async (
  executor: Executor,
  dialect: DialectName,
): Promise<boolean> => {
  const { rows } =
    dialect === 'postgres'
      ? await sql`select 1 from information_schema.columns
          where table_schema = current_schema() and table_name = 'chats' and column_name = 'search_vector'`.execute(
          executor,
        )
      : await sql`select 1 from sqlite_master where name = 'chats_search'`.execute(executor);
  return rows.length > 0;
};

/** Takes a message out of the index (it was deleted). */
export const unindexMessage = async (
  executor: Executor,
  dialect: DialectName,
  chatId: number,
): Promise<void> => {
  if (dialect === 'postgres')
    await sql`update chats set search_vector = null where id = ${chatId}`.execute(executor);
  else await sql`delete from chats_search where rowid = ${chatId}`.execute(executor);
};

/** A query's words as prefix terms of PostgreSQL's query language (words are letters/digits). */
export const postgresTsquery = (words: readonly string[]): string =>
  words.map((word) => `'${word}':*`).join(' & ');
