import {
  migrateToLatest,
  openDatabase,
  type Db,
  type DialectName,
  type OpenDatabaseOptions,
} from '../../src/server/db/database.js';
import { randomToken, sha256 } from '../../src/server/lib/crypto.js';
import {
  dropStaleDatabases,
  freshServerDatabase,
  type ServerDatabase,
} from '../../test-support/databases.js';
import { seededPasswordHash } from '../../test-support/seed-bulk.js';

export interface BenchDatabase {
  dialect: DialectName;
  /** DATABASE_URL for the server processes. */
  url: string;
  db: Db;
  /** SQLite: the file; PostgreSQL: the database name. */
  location: string;
  /** Closes the harness's own connections (the servers keep theirs). */
  close: () => Promise<void>;
  /** Closes and deletes the database. */
  drop: () => Promise<void>;
}

/** Drops `bench_*` databases left behind by harness processes that no longer run (a killed run). */
export const dropStaleBenchDatabases = (): Promise<number> => dropStaleDatabases('bench');

/** A fresh, migrated database: a temporary SQLite file, or a new PostgreSQL database (dropped afterwards). */
export const createBenchDatabase = async (
  dialect: DialectName,
  label: string,
): Promise<BenchDatabase> =>
  reopenable(
    await freshServerDatabase(dialect, `bench_${label.replace(/[^a-z0-9]/g, '')}`),
    dialect === 'postgres' ? { poolSize: 4 } : {},
  );

/** A migrated database that can be closed (while a server uses it) and reopened on next use. */
const reopenable = async (
  database: ServerDatabase,
  options: OpenDatabaseOptions,
): Promise<BenchDatabase> => {
  let db = openDatabase(database.url, options);
  await migrateToLatest(db);
  let open = true;
  const close = async () => {
    if (open) await db.destroy();
    open = false;
  };
  return {
    dialect: database.dialect,
    url: database.url,
    location: database.location,
    get db() {
      if (!open) {
        db = openDatabase(database.url, options);
        open = true;
      }
      return db;
    },
    close,
    drop: async () => {
      await close();
      await database.drop();
    },
  };
};

export interface SeededUser {
  id: number;
  role: 'candidate' | 'company';
  name: string;
  /** A personal access token (Authorization: Bearer). */
  token: string;
}

export interface SeededPair {
  conversationId: number;
  jobId: number;
  candidate: SeededUser;
  company: SeededUser;
}

/** `items` in slices of `size` (multi-row inserts stay under the drivers' parameter limits). */
export const chunks = <T>(items: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/**
 * `count` two-person conversations: candidate i ↔ company i about company i's job, each user with a
 * personal access token. Plain multi-row inserts in one transaction (fast enough up to ~10k pairs).
 */
export const seedPairs = async (bench: BenchDatabase, count: number): Promise<SeededPair[]> => {
  const hash = await seededPasswordHash();
  const now = new Date().toISOString();
  const db = bench.db.kysely;
  return db.transaction().execute(async (trx) => {
    const users = [];
    for (let i = 0; i < count; i += 1) {
      users.push({
        role: 'candidate' as const,
        name: `Candidate ${i}`,
        email: `candidate${i}@bench.test`,
        password_hash: hash,
        image_url: `/images/photos/c${i}.svg`,
        logo: null,
        created_at: now,
      });
      users.push({
        role: 'company' as const,
        name: `Company ${i}`,
        email: `company${i}@bench.test`,
        password_hash: hash,
        image_url: null,
        logo: `/images/logos/k${i}.svg`,
        created_at: now,
      });
    }
    for (const batch of chunks(users, 500)) await trx.insertInto('users').values(batch).execute();
    const rows = await trx.selectFrom('users').select(['id', 'email', 'name', 'role']).execute();
    const byEmail = new Map(rows.map((row) => [row.email, row]));
    const user = (email: string): SeededUser => {
      const row = byEmail.get(email);
      if (!row) throw new Error(`seed: ${email} missing`);
      return {
        id: row.id,
        role: row.role === 'candidate' ? 'candidate' : 'company',
        name: row.name,
        token: `bench${row.id}.${randomToken(16)}`,
      };
    };
    const pairs = Array.from({ length: count }, (_, i) => ({
      candidate: user(`candidate${i}@bench.test`),
      company: user(`company${i}@bench.test`),
    }));

    const tokens = pairs
      .flatMap(({ candidate, company }) => [candidate, company])
      .map((u) => ({
        user_id: u.id,
        token_hash: sha256(u.token),
        created_at: now,
        expires_at: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
      }));
    for (const batch of chunks(tokens, 1000))
      await trx.insertInto('api_tokens').values(batch).execute();

    const jobs = pairs.map(({ company }, i) => ({
      company_id: company.id,
      title: `Bench job ${i}`,
      status: 'active',
      deadline: '2027-12-31',
      created_at: now,
    }));
    for (const batch of chunks(jobs, 1000)) await trx.insertInto('jobs').values(batch).execute();
    const jobRows = await trx.selectFrom('jobs').select(['id', 'company_id']).execute();
    const jobOf = new Map(jobRows.map((row) => [row.company_id, row.id]));

    const conversations = pairs.map(({ candidate, company }) => {
      const jobId = jobOf.get(company.id) ?? null;
      return {
        candidate_id: candidate.id,
        company_id: company.id,
        job_id: jobId,
        job_key: jobId ?? 0,
        activity_at: now,
        created_at: now,
      };
    });
    for (const batch of chunks(conversations, 1000))
      await trx.insertInto('messenger_users').values(batch).execute();
    const conversationRows = await trx
      .selectFrom('messenger_users')
      .select(['id', 'candidate_id', 'job_id'])
      .execute();
    const conversationOf = new Map(conversationRows.map((row) => [row.candidate_id, row]));

    return pairs.map(({ candidate, company }) => {
      const row = conversationOf.get(candidate.id);
      if (!row || row.job_id === null) throw new Error('seed: conversation missing');
      return { conversationId: row.id, jobId: row.job_id, candidate, company };
    });
  });
};

/** A browser session for a user (the cookie value; the row stores its sha256, which the server looks up). */
export const insertSession = async (
  bench: BenchDatabase,
  userId: number,
): Promise<{ cookie: string; csrf: string }> => {
  const cookie = randomToken();
  const csrf = randomToken(24);
  const now = Date.now();
  await bench.db.kysely
    .insertInto('sessions')
    .values({
      id: sha256(cookie),
      user_id: userId,
      csrf_token: csrf,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + 24 * 3600 * 1000).toISOString(),
    })
    .execute();
  return { cookie, csrf };
};

/** The rows of a table now. */
export const countRows = async (
  bench: BenchDatabase,
  table: 'chats' | 'messenger_users',
): Promise<number> => {
  const { n } = await bench.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
};

/** Counts rows as the server sees them (a sanity check of the seed). */
export const countScale = async (
  bench: BenchDatabase,
): Promise<{ conversations: number; messages: number }> => {
  const conversations = await countRows(bench, 'messenger_users');
  const messages = await countRows(bench, 'chats');
  await bench.close();
  return { conversations, messages };
};
