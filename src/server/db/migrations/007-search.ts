import { sql, type Kysely } from 'kysely';

/**
 * A list search on PostgreSQL (docs/performance.md, "Paging the conversation list"): trigram
 * indexes on the lowercased user names and job titles, so that `lower(name) like '%text%'` finds
 * the matching users and jobs without reading every one. `pg_trgm` ships with PostgreSQL (contrib)
 * and is a trusted extension; where it cannot be created (not installed, no right to), the
 * migration leaves it out and the search is still right, only slower. SQLite needs nothing: its
 * search walks the viewer's own conversations.
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  if (dialect !== 'postgres') return;
  const available = await sql`select 1 from pg_available_extensions where name = 'pg_trgm'`.execute(
    db,
  );
  if (available.rows.length === 0) return;
  // Kysely runs PostgreSQL migrations in one transaction: a refusal must not abort it.
  await sql`savepoint search_trigrams`.execute(db);
  try {
    // In `public`, not in the first schema of the search path (which may be dropped on its own).
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
  } catch {
    await sql`rollback to savepoint search_trigrams`.execute(db);
    return;
  }
  await sql`release savepoint search_trigrams`.execute(db);
  // Already there before this migration: wherever it was installed.
  const installed = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const schema = installed.rows[0]?.schema ?? 'public';
  const trigramOps = sql.id(schema, 'gin_trgm_ops');
  await sql`create index users_name_trigram_idx on users using gin (lower(name) ${trigramOps})`.execute(
    db,
  );
  await sql`create index jobs_title_trigram_idx on jobs using gin (lower(title) ${trigramOps})`.execute(
    db,
  );
};
