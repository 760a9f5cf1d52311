import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/** Works on SQLite and PostgreSQL: only the id column type differs. */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const idColumn = (col: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement();

  await db.schema
    .createTable('users')
    .addColumn('id', idType, idColumn)
    .addColumn('role', 'text', (col) =>
      col.notNull().check(sql`role in ('candidate','company','owner')`),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('image_url', 'text')
    .addColumn('logo', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', idType, idColumn)
    .addColumn('company_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('deadline', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('jobs_company_idx')
    .on('jobs')
    .columns(['company_id', 'id'])
    .execute();

  await db.schema
    .createTable('application_groups')
    .addColumn('id', idType, idColumn)
    .addColumn('company_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('applications')
    .addColumn('id', idType, idColumn)
    .addColumn('job_id', 'integer', (col) =>
      col.notNull().references('jobs.id').onDelete('cascade'),
    )
    .addColumn('candidate_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('application_group_id', 'integer', (col) =>
      col.references('application_groups.id').onDelete('set null'),
    )
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('applications_job_candidate_unique', ['job_id', 'candidate_id'])
    .execute();

  await db.schema
    .createTable('messenger_users')
    .addColumn('id', idType, idColumn)
    .addColumn('candidate_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('company_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('job_id', 'integer', (col) => col.references('jobs.id').onDelete('cascade'))
    .addColumn('job_key', 'integer', (col) => col.notNull())
    .addColumn('last_message', 'text')
    .addColumn('last_message_at', 'text')
    .addColumn('activity_at', 'text', (col) => col.notNull())
    .addColumn('candidate_unread', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('company_unread', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('candidate_archive', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('company_archive', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('messenger_users_parties_unique', [
      'candidate_id',
      'company_id',
      'job_key',
    ])
    .execute();
  // The list of one viewer, newest activity first, optionally narrowed to a job.
  await db.schema
    .createIndex('messenger_users_company_activity_idx')
    .on('messenger_users')
    .columns(['company_id', 'activity_at', 'id'])
    .execute();
  await db.schema
    .createIndex('messenger_users_candidate_activity_idx')
    .on('messenger_users')
    .columns(['candidate_id', 'activity_at', 'id'])
    .execute();
  await db.schema
    .createIndex('messenger_users_candidate_job_idx')
    .on('messenger_users')
    .columns(['candidate_id', 'job_id', 'activity_at'])
    .execute();
  await db.schema
    .createIndex('messenger_users_company_job_idx')
    .on('messenger_users')
    .columns(['company_id', 'job_id', 'activity_at'])
    .execute();

  await db.schema
    .createTable('chats')
    .addColumn('id', idType, idColumn)
    .addColumn('messenger_user_id', 'integer', (col) =>
      col.notNull().references('messenger_users.id').onDelete('cascade'),
    )
    .addColumn('sender_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('receiver_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('job_id', 'integer', (col) => col.references('jobs.id').onDelete('set null'))
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('seen_at', 'text')
    .addUniqueConstraint('chats_sender_client_unique', ['sender_id', 'client_id'])
    .execute();
  // History of one conversation, paged back by id.
  await db.schema
    .createIndex('chats_conversation_idx')
    .on('chats')
    .columns(['messenger_user_id', 'id'])
    .execute();
  // Unread messages of one receiver in one conversation (marking seen, fresh counts).
  await db.schema
    .createIndex('chats_unseen_idx')
    .on('chats')
    .columns(['messenger_user_id', 'receiver_id'])
    .where(sql.ref('seen_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('csrf_token', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', idType, idColumn)
    .addColumn('user_id', 'integer', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
};
