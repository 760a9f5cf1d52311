import Database from 'better-sqlite3';
import pg from 'pg';
import { migrateToLatest, openDatabase, type DialectName } from '../src/server/db/database.js';
import { hashPassword, randomToken, sha256 } from '../src/server/lib/crypto.js';
import type { ServerDatabase } from './databases.js';

let passwordHash: Promise<string> | undefined;
/** Every seeded account's password is "password"; scrypt is slow on purpose, so it is hashed once per process. */
export const seededPasswordHash = (): Promise<string> =>
  (passwordHash ??= hashPassword('password'));

/** A migrated database to fill (the caller's own connections are closed first with `close`). */
export interface ScaleDatabase {
  dialect: DialectName;
  url: string;
  /** SQLite: the file. */
  location: string;
  close: () => Promise<void>;
}

/** Benchmark tokens live a day (an expired token authenticates nobody). */
const TOKEN_EXPIRES_AT = new Date(Date.now() + 24 * 3600 * 1000).toISOString();

export interface ScaleOptions {
  conversations: number;
  messagesPerConversation: number;
  jobs: number;
  /** Personal access tokens for the candidates of the newest conversations (default none). */
  candidateTokens?: number;
}

export interface ScaleSeed {
  companyId: number;
  companyToken: string;
  /** The tokens asked for: [0] is the candidate of the newest conversation (index n-1), then older. */
  candidateTokens: string[];
  jobIds: number[];
  /** candidate id and job id of each conversation, by conversation index. */
  candidateIds: number[];
  jobOfConversation: number[];
  conversations: number;
  messages: number;
  seedSeconds: number;
}

const BASE_TIME = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const TEXT = 'the quick brown fox jumps over the lazy dog';

/**
 * One company with `conversations` candidates (one conversation each, about one of its `jobs` jobs),
 * `messagesPerConversation` messages each, alternating sides, 1,000 minutes apart (many dates), the last two of
 * every tenth conversation unread by the company. Ids are assigned in order: company 1, candidates
 * 2…n+1, jobs 1…j, conversation i ↔ candidate i+2, chats in time order per conversation.
 *
 * SQLite: prepared statements in one transaction with the journal off for the load (back to WAL after).
 * PostgreSQL: INSERT … SELECT over generate_series, then VACUUM ANALYZE.
 */
export const seedScale = async (
  bench: ScaleDatabase,
  options: ScaleOptions,
): Promise<ScaleSeed> => {
  const started = performance.now();
  const hash = await seededPasswordHash();
  const token = `benchco.${randomToken(16)}`;
  const { conversations: n, messagesPerConversation: m, jobs } = options;
  const candidateTokens = Array.from(
    { length: Math.min(options.candidateTokens ?? 0, n) },
    (_, k) => ({ userId: n + 1 - k, token: `benchca${n + 1 - k}.${randomToken(16)}` }),
  );
  const now = iso(Date.now());
  await bench.close();

  if (bench.dialect === 'sqlite') {
    const db = new Database(bench.location);
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -200000');
    db.pragma('foreign_keys = OFF');
    const insertUser = db.prepare(
      'insert into users (id, role, name, email, password_hash, image_url, logo, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertJob = db.prepare(
      'insert into jobs (id, company_id, title, status, deadline, created_at) values (?, ?, ?, ?, ?, ?)',
    );
    const insertGroup = db.prepare(
      'insert into application_groups (id, company_id, name) values (?, ?, ?)',
    );
    const insertApplication = db.prepare(
      'insert into applications (job_id, candidate_id, application_group_id, created_at) values (?, ?, ?, ?)',
    );
    const insertConversation = db.prepare(
      'insert into messenger_users (id, candidate_id, company_id, job_id, job_key, last_message, last_message_at, activity_at, candidate_unread, company_unread, candidate_archive, company_archive, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, 0, ?)',
    );
    const insertChat = db.prepare(
      'insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, seen_at) values (?, ?, ?, ?, ?, null, ?, ?)',
    );
    const insertToken = db.prepare(
      'insert into api_tokens (user_id, token_hash, created_at, expires_at) values (?, ?, ?, ?)',
    );
    db.transaction(() => {
      insertUser.run(
        1,
        'company',
        'Scale Robotics',
        'company@scale.test',
        hash,
        null,
        '/images/logos/scale.svg',
        now,
      );
      insertToken.run(1, sha256(token), now, TOKEN_EXPIRES_AT);
      for (const candidate of candidateTokens)
        insertToken.run(candidate.userId, sha256(candidate.token), now, TOKEN_EXPIRES_AT);
      for (let j = 1; j <= jobs; j += 1)
        insertJob.run(j, 1, `Scale job ${j}`, j % 4 === 0 ? 'closed' : 'active', '2027-06-30', now);
      insertGroup.run(1, 1, 'Shortlist');
      for (let i = 0; i < n; i += 1) {
        const candidateId = i + 2;
        const jobId = (i % jobs) + 1;
        insertUser.run(
          candidateId,
          'candidate',
          `Candidate ${i}`,
          `c${i}@scale.test`,
          hash,
          `/images/photos/c${i}.svg`,
          null,
          now,
        );
        insertApplication.run(jobId, candidateId, i % 3 === 0 ? 1 : null, now);
        const conversationStart = BASE_TIME + i * 60_000;
        const unread = i % 10 === 0 ? 2 : 0;
        for (let k = 0; k < m; k += 1) {
          const fromCandidate = k % 2 === 0 || (unread > 0 && k >= m - unread);
          const at = conversationStart + k * 60_000 * 1000;
          insertChat.run(
            i + 1,
            fromCandidate ? candidateId : 1,
            fromCandidate ? 1 : candidateId,
            jobId,
            `Message ${k} of conversation ${i}: ${TEXT}`,
            iso(at),
            unread > 0 && k >= m - unread ? null : iso(at + 30_000),
          );
        }
        const lastAt = iso(conversationStart + (m - 1) * 60_000 * 1000);
        insertConversation.run(
          i + 1,
          candidateId,
          1,
          jobId,
          jobId,
          `Message ${m - 1} of conversation ${i}: ${TEXT}`,
          lastAt,
          lastAt,
          unread,
          now,
        );
      }
    })();
    db.pragma('journal_mode = WAL');
    db.close();
  } else {
    const client = new pg.Client({ connectionString: bench.url });
    await client.connect();
    try {
      await client.query('set synchronous_commit = off');
      // Bulk load: skip the per-row foreign-key triggers (the rows are consistent by construction).
      await client.query('set session_replication_role = replica');
      await client.query(`set maintenance_work_mem = '256MB'`);
      await client.query('begin');
      await client.query(
        `insert into users (id, role, name, email, password_hash, image_url, logo, created_at)
         values (1, 'company', 'Scale Robotics', 'company@scale.test', $1, null, '/images/logos/scale.svg', $2)`,
        [hash, now],
      );
      await client.query(
        'insert into api_tokens (user_id, token_hash, created_at, expires_at) values (1, $1, $2, $3)',
        [sha256(token), now, TOKEN_EXPIRES_AT],
      );
      await client.query(
        `insert into users (id, role, name, email, password_hash, image_url, logo, created_at)
         select i + 2, 'candidate', 'Candidate ' || i, 'c' || i || '@scale.test', $1, '/images/photos/c' || i || '.svg', null, $2
         from generate_series(0, $3::int - 1) as i`,
        [hash, now, n],
      );
      for (const candidate of candidateTokens)
        await client.query(
          'insert into api_tokens (user_id, token_hash, created_at, expires_at) values ($1, $2, $3, $4)',
          [candidate.userId, sha256(candidate.token), now, TOKEN_EXPIRES_AT],
        );
      await client.query(
        `insert into jobs (id, company_id, title, status, deadline, created_at)
         select j, 1, 'Scale job ' || j, case when j % 4 = 0 then 'closed' else 'active' end, '2027-06-30', $1
         from generate_series(1, $2::int) as j`,
        [now, jobs],
      );
      await client.query(
        `insert into application_groups (id, company_id, name) values (1, 1, 'Shortlist')`,
      );
      await client.query(
        `insert into applications (job_id, candidate_id, application_group_id, created_at)
         select (i % $1::int) + 1, i + 2, case when i % 3 = 0 then 1 else null end, $2
         from generate_series(0, $3::int - 1) as i`,
        [jobs, now, n],
      );
      const ts = (expr: string) =>
        `to_char((timestamp '2026-01-01 00:00:00' + (${expr}) * interval '1 millisecond'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      await client.query(
        `insert into messenger_users (id, candidate_id, company_id, job_id, job_key, last_message, last_message_at, activity_at,
                                      candidate_unread, company_unread, candidate_archive, company_archive, created_at)
         select i + 1, i + 2, 1, (i % $1::int) + 1, (i % $1::int) + 1,
                'Message ' || ($2::int - 1) || ' of conversation ' || i || ': ${TEXT}',
                ${ts(`i::bigint * 60000 + ($2::bigint - 1) * 60000000`)}, ${ts(`i::bigint * 60000 + ($2::bigint - 1) * 60000000`)},
                0, case when i % 10 = 0 then 2 else 0 end, 0, 0, $3
         from generate_series(0, $4::int - 1) as i`,
        [jobs, m, now, n],
      );
      // k-th message of conversation i; the last two of every tenth conversation come from the candidate, unread.
      await client.query(
        `insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, seen_at)
         select i + 1,
                case when k % 2 = 0 or (i % 10 = 0 and k >= $2::int - 2) then i + 2 else 1 end,
                case when k % 2 = 0 or (i % 10 = 0 and k >= $2::int - 2) then 1 else i + 2 end,
                (i % $1::int) + 1,
                'Message ' || k || ' of conversation ' || i || ': ${TEXT}',
                null,
                ${ts('i::bigint * 60000 + k::bigint * 60000000')},
                case when i % 10 = 0 and k >= $2::int - 2 then null else ${ts('i::bigint * 60000 + k::bigint * 60000000 + 30000')} end
         from generate_series(0, $3::int - 1) as i cross join generate_series(0, $2::int - 1) as k
         order by i, k`,
        [jobs, m, n],
      );
      for (const table of [
        'users',
        'jobs',
        'application_groups',
        'applications',
        'messenger_users',
        'chats',
        'api_tokens',
      ]) {
        await client.query(
          `select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 1) from ${table}))`,
        );
      }
      await client.query('commit');
      // as autovacuum leaves a table after a bulk insert: statistics, and the visibility map (index-only scans)
      await client.query('vacuum analyze');
    } finally {
      await client.end();
    }
  }

  return {
    companyId: 1,
    companyToken: token,
    candidateTokens: candidateTokens.map((candidate) => candidate.token),
    jobIds: Array.from({ length: jobs }, (_, j) => j + 1),
    candidateIds: Array.from({ length: n }, (_, i) => i + 2),
    jobOfConversation: Array.from({ length: n }, (_, i) => (i % jobs) + 1),
    conversations: n,
    messages: n * m,
    seedSeconds: (performance.now() - started) / 1000,
  };
};

/** Migrates a fresh server database (see `databases.ts`) and fills it as `seedScale` does. */
export const seedScaleDatabase = async (
  database: ServerDatabase,
  options: ScaleOptions,
): Promise<ScaleSeed> => {
  const db = openDatabase(database.url);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  return seedScale({ ...database, close: async () => undefined }, options);
};
