import { sql, type Kysely } from 'kysely';

/**
 * Attachments: an upload belongs to its uploader until a send attaches it to a
 * message (`chat_id`); the bytes live in the storage (`storage_key`, and `thumbnail_key` for
 * images). Unused uploads are found by `created_at` among those without a message.
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  await db.schema
    .createTable('attachments')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
      dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('uploader_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
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
  await db.schema
    .createIndex('attachments_chat_idx')
    .on('attachments')
    .columns(['chat_id', 'id'])
    .execute();
  // a sender's unused uploads, and (by age) those to expire
  await db.schema
    .createIndex('attachments_unused_idx')
    .on('attachments')
    .columns(['uploader_id', 'created_at'])
    .where(sql.ref('chat_id'), 'is', null)
    .execute();
  await db.schema
    .createIndex('attachments_unused_age_idx')
    .on('attachments')
    .column('created_at')
    .where(sql.ref('chat_id'), 'is', null)
    .execute();
};
