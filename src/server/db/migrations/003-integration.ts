import { sql, type Kysely } from 'kysely';
import { createIndexes } from './schema-helpers.js';

/**
 * Bringing a job board's own users and jobs in:
 * - users get the host's `external_id`, a `locale`, and `erased_at`; `email` and `password_hash`
 *   become optional (a user the host brings in may have neither: they sign in through `/sso`);
 * - jobs get the host's `external_id`;
 * - `user_settings` (one row per user who changed a default);
 * - `sso_used_tokens`: each sign-in link's `jti` works once, across instances and restarts;
 * - an application group is unique per company and name (set idempotently by name).
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  if (dialect === 'postgres') {
    await sql`alter table users alter column email drop not null`.execute(db);
    await sql`alter table users alter column password_hash drop not null`.execute(db);
    await db.schema.alterTable('users').addColumn('external_id', 'text').execute();
    await db.schema.alterTable('users').addColumn('locale', 'text').execute();
    await db.schema.alterTable('users').addColumn('erased_at', 'text').execute();
  } else {
    await rebuildSqliteUsers(db);
  }
  await createIndexes(db, 'users', {
    users_external_id_unique: { columns: ['external_id'], unique: true },
  });

  await db.schema.alterTable('jobs').addColumn('external_id', 'text').execute();
  await createIndexes(db, 'jobs', {
    jobs_external_id_unique: { columns: ['external_id'], unique: true },
  });

  await createIndexes(db, 'application_groups', {
    application_groups_company_name_unique: { columns: ['company_id', 'name'], unique: true },
  });

  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'integer', (col) =>
      col.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('email_notifications', 'integer', (col) => col.notNull())
    .addColumn('read_receipts', 'integer', (col) => col.notNull())
    .addColumn('show_online', 'integer', (col) => col.notNull())
    .addColumn('browser_notifications', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('sso_used_tokens')
    .addColumn('jti', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await createIndexes(db, 'sso_used_tokens', {
    sso_used_tokens_expires_idx: { columns: ['expires_at'] },
  });
};

/**
 * SQLite cannot drop NOT NULL in place: the table is rebuilt (its documented 12-step way), in one
 * transaction so that a crash leaves the old table, with foreign keys off only while it runs.
 */
const rebuildSqliteUsers = async (db: Kysely<unknown>): Promise<void> => {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      await sql`
        create table users_rebuilt (
          id integer primary key autoincrement,
          role text not null check (role in ('candidate','company','owner')),
          name text not null,
          email text unique,
          password_hash text,
          image_url text,
          logo text,
          created_at text not null,
          external_id text,
          locale text,
          erased_at text
        )`.execute(db);
      await sql`
        insert into users_rebuilt (id, role, name, email, password_hash, image_url, logo, created_at)
        select id, role, name, email, password_hash, image_url, logo, created_at from users`.execute(
        db,
      );
      await sql`drop table users`.execute(db);
      await sql`alter table users_rebuilt rename to users`.execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0)
        throw new Error(`users rebuild broke ${broken.rows.length} foreign keys`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
};
