import type { Kysely } from 'kysely';
import { belongsTo, createIndexes, createTableWithId } from './schema-helpers.js';

/**
 * Keeping people safe: who blocked whom (one row per pair and direction; a block holds for every
 * conversation of the pair), the reports people file (with a frozen copy of the conversation's latest
 * messages, JSON), and the host's suspension of a user (`users.suspended_at`; null: not suspended).
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  await db.schema.alterTable('users').addColumn('suspended_at', 'text').execute();
  await db.schema
    .createTable('user_blocks')
    .addColumn('blocker_id', 'integer', belongsTo('users.id'))
    .addColumn('blocked_id', 'integer', belongsTo('users.id'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('user_blocks_pk', ['blocker_id', 'blocked_id'])
    .execute();
  await createTableWithId(db, dialect, 'reports')
    .addColumn('reporter_id', 'integer', belongsTo('users.id'))
    .addColumn('reported_id', 'integer', belongsTo('users.id'))
    .addColumn('messenger_user_id', 'integer', belongsTo('messenger_users.id'))
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('details', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('messages', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await createIndexes(db, 'reports', {
    // the reporter's reports of the last day (the daily allowance)
    reports_reporter_idx: { columns: ['reporter_id', 'created_at'] },
    // the host's list: newest first, by status or not
    reports_status_idx: { columns: ['status', 'id'] },
  });
};
