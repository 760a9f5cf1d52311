import type { Kysely } from 'kysely';

/**
 * Keeping people safe: who blocked whom (one row per pair and direction; a block holds for every
 * conversation of the pair), the reports people file (with a frozen copy of the conversation's latest
 * messages, JSON), and the host's suspension of a user (`users.suspended_at`; null: not suspended).
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  await db.schema.alterTable('users').addColumn('suspended_at', 'text').execute();
  await db.schema
    .createTable('user_blocks')
    .addColumn('blocker_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('blocked_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('user_blocks_pk', ['blocker_id', 'blocked_id'])
    .execute();
  await db.schema
    .createTable('reports')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
      dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('reporter_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('reported_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('messenger_user_id', 'integer', (col) =>
      col.notNull().references('messenger_users.id').onDelete('cascade'),
    )
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('details', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('messages', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  // the reporter's reports of the last day (the daily allowance)
  await db.schema
    .createIndex('reports_reporter_idx')
    .on('reports')
    .columns(['reporter_id', 'created_at'])
    .execute();
  // the host's list: newest first, by status or not
  await db.schema
    .createIndex('reports_status_idx')
    .on('reports')
    .columns(['status', 'id'])
    .execute();
};
