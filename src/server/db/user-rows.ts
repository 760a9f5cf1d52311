import type { DialectName, Executor } from './database.js';

/**
 * Holds the user's row until the transaction ends, so that two writes of one user that first count
 * what the user already has run one after the other (PostgreSQL; SQLite runs one write transaction
 * at a time anyway). Not FOR UPDATE: that would also hold the foreign-key checks of sends to or
 * from the user, and two users locking each other's rows at once would deadlock on them.
 */
export const lockUserRow = async (
  executor: Executor,
  dialect: DialectName,
  userId: number,
): Promise<void> => {
  if (dialect !== 'postgres') return;
  await executor
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .forNoKeyUpdate()
    .execute();
};

/** Deletes the row with that id when it is the user's (`user_id`); how many went (0 or 1). */
export const deleteUsersRow = async (
  executor: Executor,
  table: 'api_tokens' | 'message_templates',
  userId: number,
  id: number,
): Promise<number> => {
  const result = await executor
    .deleteFrom(table)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
};
