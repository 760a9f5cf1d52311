import type { Kysely } from 'kysely';
import { belongsTo, createIndexes, createTableWithId } from './schema-helpers.js';

/**
 * Saved replies: each user's own texts to insert in the composer (at most TEMPLATES_PER_USER each),
 * gone with their user. Listed by name, hence the index on (user_id, name).
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  await createTableWithId(db, dialect, 'message_templates')
    .addColumn('user_id', 'integer', belongsTo('users.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await createIndexes(db, 'message_templates', {
    message_templates_user_name_idx: { columns: ['user_id', 'name'] },
  });
};
