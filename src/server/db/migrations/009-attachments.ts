import type { Kysely } from 'kysely';
import { belongsTo, createIndexes, createTableWithId } from './schema-helpers.js';

/**
 * Attachments: an upload belongs to its uploader until a send attaches it to a
 * message (`chat_id`); the bytes live in the storage (`storage_key`, and `thumbnail_key` for
 * images). Unused uploads are found by `created_at` among those without a message.
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  await createTableWithId(db, dialect, 'attachments')
    .addColumn('uploader_id', 'integer', belongsTo('users.id'))
    .addColumn('chat_id', 'integer', (col) => col.references('chats.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('mime', 'text', (col) => col.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('storage_key', 'text', (col) => col.notNull().unique())
    .addColumn('thumbnail_key', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await createIndexes(db, 'attachments', {
    attachments_chat_idx: { columns: ['chat_id', 'id'] },
    // a sender's unused uploads, and (by age) those to expire
    attachments_unused_idx: { columns: ['uploader_id', 'created_at'], whereNull: 'chat_id' },
    attachments_unused_age_idx: { columns: ['created_at'], whereNull: 'chat_id' },
  });
};
