import { sql, type Kysely } from 'kysely';

/**
 * Hardening: a small key/value table for what a deployment keeps across restarts (the generated
 * broadcaster secret, whether this database holds the demo), and tokens that expire and have names.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('app_settings')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema.alterTable('api_tokens').addColumn('name', 'text').execute();
  await db.schema.alterTable('api_tokens').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('api_tokens').addColumn('last_used_at', 'text').execute();
  // Tokens issued before expiry existed get the default lifetime from now on.
  const expiresAt = new Date(Date.now() + 90 * 24 * 3600 * 1000).toISOString();
  await sql`update api_tokens set expires_at = ${expiresAt}, name = 'API token' where expires_at is null`.execute(
    db,
  );
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();
};
