import { sql, type Kysely } from 'kysely';

/**
 * Read receipts are decided when a message is read, not when it is shown: a
 * message read while the reader had `read_receipts` off stays unrevealed to its sender even after
 * they switch receipts on again (`seen_privately` = 1). Messages already read by someone who has
 * receipts off now were hidden until now: they stay hidden.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('chats')
    .addColumn('seen_privately', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`
    update chats set seen_privately = 1
    where seen_at is not null
      and receiver_id in (select user_id from user_settings where read_receipts = 0)
  `.execute(db);
};
