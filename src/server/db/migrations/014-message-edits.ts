import type { Kysely } from 'kysely';

/**
 * Editing and deleting messages: when the sender last edited a message's text, and when they
 * deleted it (its text is then emptied and its files leave storage; the row keeps its place in the
 * conversation). Null: never.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('chats').addColumn('edited_at', 'text').execute();
  await db.schema.alterTable('chats').addColumn('deleted_at', 'text').execute();
};
