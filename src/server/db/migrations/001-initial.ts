import { sql, type Kysely } from 'kysely';
import { belongsTo, createIndexes, createTableWithId } from './schema-helpers.js';

/** Works on SQLite and PostgreSQL: only the id column type differs. */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  await createTableWithId(db, dialect, 'users')
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

  await createTableWithId(db, dialect, 'jobs')
    .addColumn('company_id', 'integer', belongsTo('users.id'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('deadline', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await createIndexes(db, 'jobs', { jobs_company_idx: { columns: ['company_id', 'id'] } });

  await createTableWithId(db, dialect, 'application_groups')
    .addColumn('company_id', 'integer', belongsTo('users.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .execute();

  await createTableWithId(db, dialect, 'applications')
    .addColumn('job_id', 'integer', belongsTo('jobs.id'))
    .addColumn('candidate_id', 'integer', belongsTo('users.id'))
    .addColumn('application_group_id', 'integer', (col) =>
      col.references('application_groups.id').onDelete('set null'),
    )
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('applications_job_candidate_unique', ['job_id', 'candidate_id'])
    .execute();

  await createTableWithId(db, dialect, 'messenger_users')
    .addColumn('candidate_id', 'integer', belongsTo('users.id'))
    .addColumn('company_id', 'integer', belongsTo('users.id'))
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
  await createIndexes(db, 'messenger_users', {
    messenger_users_company_activity_idx: { columns: ['company_id', 'activity_at', 'id'] },
    messenger_users_candidate_activity_idx: { columns: ['candidate_id', 'activity_at', 'id'] },
    messenger_users_candidate_job_idx: { columns: ['candidate_id', 'job_id', 'activity_at'] },
    messenger_users_company_job_idx: { columns: ['company_id', 'job_id', 'activity_at'] },
  });

  await createTableWithId(db, dialect, 'chats')
    .addColumn('messenger_user_id', 'integer', belongsTo('messenger_users.id'))
    .addColumn('sender_id', 'integer', belongsTo('users.id'))
    .addColumn('receiver_id', 'integer', belongsTo('users.id'))
    .addColumn('job_id', 'integer', (col) => col.references('jobs.id').onDelete('set null'))
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('seen_at', 'text')
    .addUniqueConstraint('chats_sender_client_unique', ['sender_id', 'client_id'])
    .execute();
  await createIndexes(db, 'chats', {
    // History of one conversation, paged back by id.
    chats_conversation_idx: { columns: ['messenger_user_id', 'id'] },
    // Unread messages of one receiver in one conversation (marking seen, fresh counts).
    chats_unseen_idx: { columns: ['messenger_user_id', 'receiver_id'], whereNull: 'seen_at' },
  });

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', belongsTo('users.id'))
    .addColumn('csrf_token', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await createIndexes(db, 'sessions', { sessions_user_idx: { columns: ['user_id'] } });

  await createTableWithId(db, dialect, 'api_tokens')
    .addColumn('user_id', 'integer', belongsTo('users.id'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
};
