import type { Kysely } from 'kysely';

/**
 * Saved replies: each user's own texts to insert in the composer (at most TEMPLATES_PER_USER each),
 * gone with their user. Listed by name, hence the index on (user_id, name).
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  await db.schema
    .createTable('message_templates')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
      dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('user_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('message_templates_user_name_idx')
    .on('message_templates')
    .columns(['user_id', 'name'])
    .execute();
};
