import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database.js';
import { postgresTsquery, sqliteMatchOf } from '../../db/search-index.js';
import { attachmentsOfChats, chatQuery } from '../../read-model/chat.repository.js';

/**
 * PostgreSQL: how many of the viewer's newest messages (before the cursor) are walked first, each
 * matched with `@@`: a word found in many messages fills a page there without reading every match;
 * past it, the GIN index finds the rarer ones (see `matchingIds`).
 */
export const WALK_FIRST = 2000;

/**
 * The ids of the viewer's messages (sent or received) older than `before` whose words start with
 * each of `words` (at least one), newest first, at most `limit`.
 */
type MatchingIds = (
  executor: Executor,
  viewerId: number,
  words: readonly string[],
  before: number,
  limit: number,
) => Promise<number[]>;

/** The message search's SQL, on each database's own full-text index (migration 016). */
export const createSearchRepository = ({ dialect }: Pick<Db, 'dialect'>) => {
  /**
   * SQLite: FTS5 hands the matches out newest first (descending rowid) and stops at the limit;
   * each is kept when the viewer is its sender or receiver. Prefixes are asked as the exact words
   * they start (`sqliteMatchOf`).
   */
  const sqliteIds: MatchingIds = async (executor, viewerId, words, before, limit) => {
    const match = await sqliteMatchOf(executor, words);
    if (match === null) return [];
    // CROSS JOIN: SQLite keeps the full-text table the outer loop (the order of the matches).
    const { rows } = await sql<{ id: number }>`
      select chats_search.rowid as id
      from chats_search cross join chats c on c.id = chats_search.rowid
      where chats_search match ${match} and chats_search.rowid < ${before}
        and (c.sender_id = ${viewerId} or c.receiver_id = ${viewerId})
      order by chats_search.rowid desc
      limit ${limit}`.execute(executor);
    return rows.map((row) => row.id);
  };

  /**
   * PostgreSQL, in two steps, so that neither a common nor a rare word reads much:
   * 1. the viewer's newest `WALK_FIRST` messages before the cursor (their sent and their received
   *    ones, each an index range read backwards), matched one by one: enough for a word found in
   *    many of them;
   * 2. when those were not enough and the viewer has older messages: the matches older than the
   *    walk, found by the GIN index and kept when they are the viewer's. This one runs unnamed
   *    (not a prepared statement), so PostgreSQL plans it with the words themselves.
   */
  const postgresIds: MatchingIds = async (executor, viewerId, words, before, limit) => {
    const tsquery = postgresTsquery(words);
    const { rows } = await sql<{ ids: number[]; walked: number; last: number | null }>`
      with walk as (
        select id, search_vector from (
          (select id, search_vector from chats
            where sender_id = ${viewerId} and id < ${before} order by id desc limit ${WALK_FIRST})
          union all
          (select id, search_vector from chats
            where receiver_id = ${viewerId} and id < ${before} order by id desc limit ${WALK_FIRST})
        ) sides
        order by id desc limit ${WALK_FIRST}
      )
      select
        array(select id from walk where search_vector @@ to_tsquery('simple', ${tsquery})
              order by id desc limit ${limit}) as ids,
        (select count(*) from walk)::integer as walked,
        (select min(id) from walk) as last`.execute(executor);
    const walk = rows[0];
    const ids = walk?.ids ?? [];
    if (ids.length >= limit || !walk || walk.walked < WALK_FIRST || walk.last === null) return ids;
    const older = await sql<{ id: number }>`-- planned for its words (unnamed)
      select id from chats
      where search_vector @@ to_tsquery('simple', ${tsquery}) and id < ${walk.last}
        and (sender_id = ${viewerId} or receiver_id = ${viewerId})
      order by id desc
      limit ${limit - ids.length}`.execute(executor);
    return [...ids, ...older.rows.map((row) => row.id)];
  };

  return {
    /** See `MatchingIds`: each database's own way. */
    matchingIds: dialect === 'postgres' ? postgresIds : sqliteIds,

    /** These messages with their senders (any order). */
    chatsByIds: (executor: Executor, ids: readonly number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : chatQuery(executor)
            .where('c.id', 'in', [...ids])
            .execute(),

    attachmentsOfChats,
  };
};

export type SearchRepository = ReturnType<typeof createSearchRepository>;
