import { sql, type Kysely } from 'kysely';
import { searchDocument } from '../../../shared/search-text.js';

/** Messages read and indexed at a time by the backfill (a database may hold millions). */
const BATCH = 2000;

/**
 * Searching messages: each database's own full-text index of the messages' words
 * (`src/server/db/search-index.ts` keeps it in step).
 * - SQLite: a contentless FTS5 table (rowid = chats.id, body = `searchDocument(message)`); the
 *   document is already normalized, so the tokenizer only splits on spaces. Beside it, every word
 *   indexed (`chats_search_terms`), so that a prefix is asked as the words it starts.
 * - PostgreSQL: `chats.search_vector` (`to_tsvector('simple', document)`) with a GIN index, and
 *   indexes of each party's messages by id, so the search can also walk the viewer's own messages
 *   newest first (the plan for a word found in many messages).
 * Messages already stored are indexed here, in batches, oldest first (deleted ones and those
 * without words have no entry).
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  if (dialect === 'sqlite') {
    await sql`create virtual table chats_search using fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(
      db,
    );
    // every word indexed, for turning a prefix into words (src/server/db/search-index.ts)
    await sql`create table chats_search_terms (term text primary key) without rowid`.execute(db);
  } else {
    await sql`alter table chats add column search_vector tsvector`.execute(db);
  }
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; message: string }>`
      select id, message from chats
      where id > ${after} and deleted_at is null
      order by id limit ${BATCH}`.execute(db);
    const last = rows.at(-1);
    if (!last) break;
    after = last.id;
    const documents = rows
      .map((row) => ({ id: row.id, document: searchDocument(row.message) }))
      .filter((row) => row.document !== '');
    if (documents.length === 0) continue;
    if (dialect === 'sqlite') {
      await sql`insert into chats_search (rowid, body) values ${sql.join(
        documents.map((row) => sql`(${row.id}, ${row.document})`),
      )}`.execute(db);
    } else {
      await sql`update chats set search_vector = to_tsvector('simple', d.document)
        from unnest(${documents.map((row) => row.id)}::int[], ${documents.map((row) => row.document)}::text[]) as d(id, document)
        where chats.id = d.id`.execute(db);
    }
  }
  if (dialect === 'sqlite') {
    // the words of what was indexed, from FTS5's own vocabulary
    await sql`create virtual table temp.chats_search_vocabulary using fts5vocab(main, chats_search, row)`.execute(
      db,
    );
    await sql`insert or ignore into chats_search_terms (term) select term from temp.chats_search_vocabulary`.execute(
      db,
    );
    await sql`drop table temp.chats_search_vocabulary`.execute(db);
  }
  if (dialect === 'postgres') {
    await sql`create index chats_search_vector_idx on chats using gin (search_vector)`.execute(db);
    await sql`create index chats_sender_idx on chats (sender_id, id)`.execute(db);
    await sql`create index chats_receiver_idx on chats (receiver_id, id)`.execute(db);
  }
};
