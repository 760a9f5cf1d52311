import Database from 'better-sqlite3';
import pg from 'pg';
import { migrateToLatest, openDatabase, type DialectName } from '../src/server/db/database.js';
import { hashPassword, randomToken, sha256 } from '../src/server/lib/crypto.js';
import { REBUILD_SQLITE_TERMS_SQL } from '../src/server/db/search-index.js';
import { searchDocument } from '../src/shared/search-text.js';
import { capacityToken, userIdOf, type CapacityPopulation } from './capacity-population.js';
import type { ServerDatabase } from './databases.js';

/**
 * Large seeds for the benchmarks and the tests at scale: one company with many conversations
 * (`seedScale`), and the capacity benchmark's population (`seedCapacity`). Both load through
 * `bulkLoad`, each engine's fastest way in.
 */

let passwordHash: Promise<string> | undefined;
/** Every seeded account's password is "password"; scrypt is slow on purpose, so it is hashed once per process. */
export const seededPasswordHash = (): Promise<string> =>
  (passwordHash ??= hashPassword('password'));

/** A migrated database to fill (the caller's own connections are closed first with `close`). */
export interface BulkDatabase {
  dialect: DialectName;
  url: string;
  /** SQLite: the file. */
  location: string;
  close: () => Promise<void>;
}

const HOUR = 3600 * 1000;
const iso = (ms: number): string => new Date(ms).toISOString();

/** Seeded tokens live a day (an expired token authenticates nobody). */
const tokenExpiry = (): string => iso(Date.now() + 24 * HOUR);

interface BulkLoad {
  /** PostgreSQL: the tables whose id sequences are moved past the explicit ids loaded. */
  tables: string[];
  /**
   * Tables whose secondary indexes are dropped for the load and built again after it: one sorted
   * bulk build instead of row by row in random key order, several times faster. Constraint indexes
   * stay (PostgreSQL cannot drop them on their own).
   */
  deferIndexesOf?: string[];
  sqlite: (db: Database.Database) => void;
  postgres: (client: pg.Client) => Promise<void>;
}

/**
 * Loads rows in one transaction. SQLite: its own connection with the journal, fsync and foreign
 * keys off for the load (WAL again after). PostgreSQL: one client without commit waits or per-row
 * foreign-key triggers (the rows are consistent by construction), then VACUUM ANALYZE, as
 * autovacuum leaves a table after a bulk insert: statistics, and the visibility map (index-only
 * scans).
 */
const bulkLoad = async (bench: BulkDatabase, load: BulkLoad): Promise<void> => {
  await bench.close();
  const deferred = load.deferIndexesOf ?? [];
  if (bench.dialect === 'sqlite') {
    const db = new Database(bench.location);
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -200000');
    db.pragma('foreign_keys = OFF');
    const indexes =
      deferred.length === 0
        ? []
        : (db
            .prepare(
              `select name, sql from sqlite_master
               where type = 'index' and sql is not null and tbl_name in (${deferred.map((table) => `'${table}'`).join(', ')})`,
            )
            .all() as { name: string; sql: string }[]);
    db.transaction(() => {
      for (const index of indexes) db.exec(`drop index "${index.name}"`);
      load.sqlite(db);
      for (const index of indexes) db.exec(index.sql);
    })();
    db.pragma('journal_mode = WAL');
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: bench.url });
  await client.connect();
  try {
    await client.query('set synchronous_commit = off');
    await client.query('set session_replication_role = replica');
    await client.query(`set maintenance_work_mem = '256MB'`);
    await client.query('begin');
    const { rows: indexes } =
      deferred.length === 0
        ? { rows: [] }
        : await client.query<{ name: string; sql: string }>(
            `select indexname as name, indexdef as sql from pg_indexes
             where schemaname = current_schema() and tablename = any($1::text[])
               and indexname not in (select conname from pg_constraint)`,
            [deferred],
          );
    for (const index of indexes) await client.query(`drop index "${index.name}"`);
    await load.postgres(client);
    for (const index of indexes) await client.query(index.sql);
    for (const table of load.tables)
      await client.query(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 1) from ${table}))`,
      );
    await client.query('commit');
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
};

/** The SQLite statements both seeds write users, tokens, jobs and conversations with. */
const sqliteInserts = (db: Database.Database) => ({
  user: db.prepare(
    'insert into users (id, role, name, email, password_hash, image_url, logo, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  token: db.prepare(
    'insert into api_tokens (user_id, token_hash, name, created_at, expires_at) values (?, ?, ?, ?, ?)',
  ),
  job: db.prepare(
    'insert into jobs (id, company_id, title, status, deadline, created_at) values (?, ?, ?, ?, ?, ?)',
  ),
  conversation: db.prepare(
    'insert into messenger_users (id, candidate_id, company_id, job_id, job_key, last_message, last_message_at, activity_at, candidate_unread, company_unread, candidate_archive, company_archive, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?)',
  ),
});

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

const SCALE_BASE_TIME = Date.parse('2026-01-01T00:00:00.000Z');
const SCALE_TEXT = 'the quick brown fox jumps over the lazy dog';

/**
 * What the scale seed's messages say after "Message k of conversation i:", in turn (message number
 * g = i × m + k picks `SCALE_PHRASES[g % length]`): words the message search finds in many messages
 * ("interview" in 3 of 10, the prefix "engin" in 2 of 10), Arabic with short vowels (2 of 10), and
 * two rarer words added to some (`scaleExtraWord`).
 */
export const SCALE_PHRASES = [
  SCALE_TEXT,
  'Thanks for the interview today, we will be in touch',
  'Could you send your portfolio before the interview?',
  'The engineering team reviewed your application',
  'شُكراً لَكَ على المُقابَلة اليوم، سَنَتواصَل مَعَكَ قَريباً',
  SCALE_TEXT,
  'Please confirm the interview time for Thursday',
  'سَنُرسِلُ لَكَ العَرضَ الوَظيفيَّ غَداً',
  'Our engineers will call you about the role',
  'Happy to answer any question about the position',
] as const;
/** A word in one message of about 100,000 (`zanzibar`), and one in one of 1,000 (`kilimanjaro`). */
export const SCALE_RARE_WORDS = { rare: 'zanzibar', uncommon: 'kilimanjaro' } as const;
const RARE_EVERY = 99_991;
const UNCOMMON_EVERY = 1_000;
const scaleExtraWord = (g: number): string =>
  g % RARE_EVERY === 0
    ? ` ${SCALE_RARE_WORDS.rare}`
    : g % UNCOMMON_EVERY === 3
      ? ` ${SCALE_RARE_WORDS.uncommon}`
      : '';
const SCALE_PHRASE_DOCUMENTS = SCALE_PHRASES.map((phrase) => searchDocument(phrase));

/** The k-th message of conversation i (m messages each), and what the search index holds of it. */
export const scaleMessage = (
  i: number,
  k: number,
  m: number,
): { text: string; document: string } => {
  const g = i * m + k;
  const phrase = g % SCALE_PHRASES.length;
  const extra = scaleExtraWord(g);
  return {
    text: `Message ${k} of conversation ${i}: ${SCALE_PHRASES[phrase]}${extra}`,
    document: `message ${k} of conversation ${i} ${SCALE_PHRASE_DOCUMENTS[phrase]}${extra}`,
  };
};

/**
 * `scaleMessage` in PostgreSQL, over the columns `i` and `k` (integers) and the parameters
 * `$phrases` / `$documents` (text[] of SCALE_PHRASES and their documents) and `$m`.
 */
const scaleMessageSql = (phrases: string, documents: string, m: string) => {
  const g = `(i::bigint * ${m}::int + k)`;
  const pick = `((${g} % ${SCALE_PHRASES.length})::int + 1)`;
  const extra = `(case when ${g} % ${RARE_EVERY} = 0 then ' ${SCALE_RARE_WORDS.rare}' when ${g} % ${UNCOMMON_EVERY} = 3 then ' ${SCALE_RARE_WORDS.uncommon}' else '' end)`;
  return {
    text: `'Message ' || k || ' of conversation ' || i || ': ' || (${phrases})[${pick}] || ${extra}`,
    document: `'message ' || k || ' of conversation ' || i || ' ' || (${documents})[${pick}] || ${extra}`,
  };
};

/**
 * One company with `conversations` candidates (one conversation each, about one of its `jobs` jobs),
 * `messagesPerConversation` messages each, alternating sides, 1,000 minutes apart (many dates), the last two of
 * every tenth conversation unread by the company. Ids are assigned in order: company 1, candidates
 * 2…n+1, jobs 1…j, conversation i ↔ candidate i+2, chats in time order per conversation.
 *
 * SQLite: prepared statements. PostgreSQL: INSERT … SELECT over generate_series.
 */
export const seedScale = async (bench: BulkDatabase, options: ScaleOptions): Promise<ScaleSeed> => {
  const started = performance.now();
  const hash = await seededPasswordHash();
  const token = `benchco.${randomToken(16)}`;
  const { conversations: n, messagesPerConversation: m, jobs } = options;
  const candidateTokens = Array.from(
    { length: Math.min(options.candidateTokens ?? 0, n) },
    (_, k) => ({ userId: n + 1 - k, token: `benchca${n + 1 - k}.${randomToken(16)}` }),
  );
  const now = iso(Date.now());
  const expires = tokenExpiry();

  await bulkLoad(bench, {
    tables: [
      'users',
      'jobs',
      'application_groups',
      'applications',
      'messenger_users',
      'chats',
      'api_tokens',
    ],
    // The search index (GIN) and the others built once after the load.
    deferIndexesOf: ['chats'],
    sqlite: (db) => {
      const insert = sqliteInserts(db);
      const insertSearch = db.prepare('insert into chats_search (rowid, body) values (?, ?)');
      const insertGroup = db.prepare(
        'insert into application_groups (id, company_id, name) values (?, ?, ?)',
      );
      const insertApplication = db.prepare(
        'insert into applications (job_id, candidate_id, application_group_id, created_at) values (?, ?, ?, ?)',
      );
      const insertChat = db.prepare(
        'insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, seen_at) values (?, ?, ?, ?, ?, null, ?, ?)',
      );
      insert.user.run(
        1,
        'company',
        'Scale Robotics',
        'company@scale.test',
        hash,
        null,
        '/images/logos/scale.svg',
        now,
      );
      insert.token.run(1, sha256(token), null, now, expires);
      for (const candidate of candidateTokens)
        insert.token.run(candidate.userId, sha256(candidate.token), null, now, expires);
      for (let j = 1; j <= jobs; j += 1)
        insert.job.run(
          j,
          1,
          `Scale job ${j}`,
          j % 4 === 0 ? 'closed' : 'active',
          '2027-06-30',
          now,
        );
      insertGroup.run(1, 1, 'Shortlist');
      for (let i = 0; i < n; i += 1) {
        const candidateId = i + 2;
        const jobId = (i % jobs) + 1;
        insert.user.run(
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
        const conversationStart = SCALE_BASE_TIME + i * 60_000;
        const unread = i % 10 === 0 ? 2 : 0;
        for (let k = 0; k < m; k += 1) {
          const fromCandidate = k % 2 === 0 || (unread > 0 && k >= m - unread);
          const at = conversationStart + k * 60_000 * 1000;
          const message = scaleMessage(i, k, m);
          const { lastInsertRowid } = insertChat.run(
            i + 1,
            fromCandidate ? candidateId : 1,
            fromCandidate ? 1 : candidateId,
            jobId,
            message.text,
            iso(at),
            unread > 0 && k >= m - unread ? null : iso(at + 30_000),
          );
          insertSearch.run(lastInsertRowid, message.document);
        }
        const lastAt = iso(conversationStart + (m - 1) * 60_000 * 1000);
        insert.conversation.run(
          i + 1,
          candidateId,
          1,
          jobId,
          jobId,
          scaleMessage(i, m - 1, m).text.slice(0, 100),
          lastAt,
          lastAt,
          0,
          unread,
          now,
        );
      }
      for (const statement of REBUILD_SQLITE_TERMS_SQL) db.exec(statement);
    },
    postgres: async (client) => {
      await client.query(
        `insert into users (id, role, name, email, password_hash, image_url, logo, created_at)
         values (1, 'company', 'Scale Robotics', 'company@scale.test', $1, null, '/images/logos/scale.svg', $2)`,
        [hash, now],
      );
      await client.query(
        'insert into api_tokens (user_id, token_hash, created_at, expires_at) values (1, $1, $2, $3)',
        [sha256(token), now, expires],
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
          [candidate.userId, sha256(candidate.token), now, expires],
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
                left((select ${scaleMessageSql('$5::text[]', '$5::text[]', '$2').text} from (select $2::int - 1 as k) last), 100),
                ${ts(`i::bigint * 60000 + ($2::bigint - 1) * 60000000`)}, ${ts(`i::bigint * 60000 + ($2::bigint - 1) * 60000000`)},
                0, case when i % 10 = 0 then 2 else 0 end, 0, 0, $3
         from generate_series(0, $4::int - 1) as i`,
        [jobs, m, now, n, [...SCALE_PHRASES]],
      );
      // k-th message of conversation i; the last two of every tenth conversation come from the candidate, unread.
      await client.query(
        `insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, seen_at, search_vector)
         select i + 1,
                case when k % 2 = 0 or (i % 10 = 0 and k >= $2::int - 2) then i + 2 else 1 end,
                case when k % 2 = 0 or (i % 10 = 0 and k >= $2::int - 2) then 1 else i + 2 end,
                (i % $1::int) + 1,
                ${scaleMessageSql('$4::text[]', '$5::text[]', '$2').text},
                null,
                ${ts('i::bigint * 60000 + k::bigint * 60000000')},
                case when i % 10 = 0 and k >= $2::int - 2 then null else ${ts('i::bigint * 60000 + k::bigint * 60000000 + 30000')} end,
                to_tsvector('simple', ${scaleMessageSql('$4::text[]', '$5::text[]', '$2').document})
         from generate_series(0, $3::int - 1) as i cross join generate_series(0, $2::int - 1) as k
         order by i, k`,
        [jobs, m, n, [...SCALE_PHRASES], SCALE_PHRASE_DOCUMENTS],
      );
    },
  });

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

export interface CapacitySeedResult {
  users: number;
  recruiters: number;
  conversations: number;
  messages: number;
  jobs: number;
  seedSeconds: number;
}

const CAPACITY_TEXT = 'thanks, talk soon about the role';
/** What the search index holds of a capacity message after its "message k". */
const CAPACITY_DOCUMENT = searchDocument(CAPACITY_TEXT);

/**
 * Writes the capacity population: users (no e-mail address, so the e-mail rule never mails anyone:
 * no .eml files from a benchmark), one token each, jobs, conversations with
 * `messagesPerConversation` messages alternating sides (the candidate first, one hour apart, the
 * last one at the conversation's activity time), the last message of every fifth conversation
 * unread by its receiver. Every stored message counts as already taken by the notification rule.
 *
 * SQLite: prepared statements, the messages in SQL. PostgreSQL: `unnest` of arrays and
 * `INSERT … SELECT`.
 */
export const seedCapacity = async (
  bench: BulkDatabase,
  population: CapacityPopulation,
  tokenSecret: string,
): Promise<CapacitySeedResult> => {
  const started = performance.now();
  const hash = await seededPasswordHash();
  const now = iso(Date.now());
  const expires = tokenExpiry();
  const m = population.options.messagesPerConversation;
  const n = population.users;
  const conversations = population.conversationCandidate.length;
  const jobs = population.jobCompany.length;
  const unreadOf = (c: number) => c % 5 === 0;
  // The last message's sender: the candidate when m is odd (k = m - 1 even).
  const lastFromCandidate = (m - 1) % 2 === 0;
  const name = (i: number) => (population.recruiter[i] ? `Recruiter ${i}` : `Candidate ${i}`);

  await bulkLoad(bench, {
    tables: ['users', 'jobs', 'messenger_users', 'chats', 'api_tokens'],
    deferIndexesOf: ['chats', 'messenger_users'],
    sqlite: (db) => {
      const insert = sqliteInserts(db);
      for (let i = 0; i < n; i += 1) {
        const id = userIdOf(i);
        const company = population.recruiter[i] === 1;
        insert.user.run(
          id,
          company ? 'company' : 'candidate',
          name(i),
          null,
          hash,
          company ? null : `/images/photos/c${i}.svg`,
          company ? `/images/logos/r${i}.svg` : null,
          now,
        );
        insert.token.run(id, sha256(capacityToken(tokenSecret, id)), 'capacity', now, expires);
      }
      for (let j = 0; j < jobs; j += 1)
        insert.job.run(
          j + 1,
          userIdOf(population.jobCompany[j]!),
          `Role ${j + 1}`,
          'active',
          '2027-12-31',
          now,
        );
      for (let c = 0; c < conversations; c += 1) {
        const jobId = population.conversationJob[c]!;
        const last = population.conversationActivity[c]!;
        const unread = unreadOf(c);
        insert.conversation.run(
          c + 1,
          userIdOf(population.conversationCandidate[c]!),
          userIdOf(population.conversationCompany[c]!),
          jobId,
          jobId,
          `Message ${m - 1}: ${CAPACITY_TEXT}`,
          iso(last),
          iso(last),
          unread && !lastFromCandidate ? 1 : 0,
          unread && lastFromCandidate ? 1 : 0,
          iso(last - m * HOUR),
        );
      }
      // The messages in SQL (no row crosses into JavaScript): the k-th of each conversation one
      // hour before the next, the last at the conversation's activity; the cross join keeps the
      // conversations the outer loop (SQLite never reorders it), so each one's rows are together
      // and in order, and ids follow time without sorting a million rows.
      const at = (offset: string) =>
        `strftime('%Y-%m-%dT%H:%M:%fZ', mu.activity_at, '-' || (${m} - 1 - k.value) || ' hours'${offset})`;
      db.prepare(
        `with k(value) as (values ${Array.from({ length: m }, (_, k) => `(${k})`).join(', ')})
         insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, seen_at, notified_at)
         select mu.id,
                case when k.value % 2 = 0 then mu.candidate_id else mu.company_id end,
                case when k.value % 2 = 0 then mu.company_id else mu.candidate_id end,
                mu.job_id,
                'Message ' || k.value || ': ${CAPACITY_TEXT}',
                null,
                ${at('')},
                case when mu.id % 5 = 1 and k.value = ${m} - 1 then null else ${at(`, '+1 minutes'`)} end,
                ?
         from messenger_users mu cross join k`,
      ).run(now);
      // their words for the search: "message k " then the fixed text's document
      db.prepare(
        `insert into chats_search (rowid, body)
         select id, 'message ' || substr(message, 9, instr(message, ':') - 9) || ' ' || ? from chats`,
      ).run(CAPACITY_DOCUMENT);
      for (const statement of REBUILD_SQLITE_TERMS_SQL) db.exec(statement);
    },
    postgres: async (client) => {
      const ids = Array.from({ length: n }, (_, i) => userIdOf(i));
      const isCompany = Array.from({ length: n }, (_, i) => population.recruiter[i] === 1);
      await client.query(
        `insert into users (id, role, name, email, password_hash, image_url, logo, created_at)
         select u.id, case when u.company then 'company' else 'candidate' end,
                case when u.company then 'Recruiter ' else 'Candidate ' end || (u.id - 1), null, $3,
                case when u.company then null else '/images/photos/c' || (u.id - 1) || '.svg' end,
                case when u.company then '/images/logos/r' || (u.id - 1) || '.svg' else null end, $4
         from unnest($1::int[], $2::bool[]) as u(id, company)`,
        [ids, isCompany, hash, now],
      );
      await client.query(
        `insert into api_tokens (user_id, token_hash, name, created_at, expires_at)
         select t.user_id, t.token_hash, 'capacity', $3, $4
         from unnest($1::int[], $2::text[]) as t(user_id, token_hash)`,
        [ids, ids.map((id) => sha256(capacityToken(tokenSecret, id))), now, expires],
      );
      await client.query(
        `insert into jobs (id, company_id, title, status, deadline, created_at)
         select j.ord::int, j.company, 'Role ' || j.ord, 'active', '2027-12-31', $2
         from unnest($1::int[]) with ordinality as j(company, ord)`,
        [Array.from(population.jobCompany, (i) => userIdOf(i)), now],
      );
      // ISO text with its hour (`hh`) or minute moved by `by`: within the day by construction, and
      // several times cheaper than to_char over a million rows.
      const shiftHour = (text: string, by: string) =>
        `substr(${text}, 1, 11) || lpad((substr(${text}, 12, 2)::int + ${by})::text, 2, '0') || substr(${text}, 14)`;
      const shiftMinute = (text: string, by: string) =>
        `substr(${text}, 1, 14) || lpad((substr(${text}, 15, 2)::int + ${by})::text, 2, '0') || substr(${text}, 17)`;
      const lastAt = Array.from(population.conversationActivity, (ms) => iso(ms));
      await client.query(
        `insert into messenger_users (id, candidate_id, company_id, job_id, job_key, last_message, last_message_at,
                                      activity_at, candidate_unread, company_unread, candidate_archive, company_archive, created_at)
         select c.ord::int, c.candidate, c.company, c.job, c.job, $5, c.last_at, c.last_at,
                case when c.ord % 5 = 1 and not $6::bool then 1 else 0 end,
                case when c.ord % 5 = 1 and $6::bool then 1 else 0 end,
                0, 0, ${shiftHour('c.last_at', `-${m}`)}
         from unnest($1::int[], $2::int[], $3::int[], $4::text[])
              with ordinality as c(candidate, company, job, last_at, ord)`,
        [
          Array.from(population.conversationCandidate, (i) => userIdOf(i)),
          Array.from(population.conversationCompany, (i) => userIdOf(i)),
          Array.from(population.conversationJob),
          lastAt,
          `Message ${m - 1}: ${CAPACITY_TEXT}`,
          lastFromCandidate,
        ],
      );
      // k-th message of each conversation, one hour apart, the last at the conversation's activity;
      // the series depends on the row (`0 * mu.id`), so conversations stay the outer loop: each
      // one's rows together and in order, ids in time order, without sorting a million rows.
      const created = shiftHour('mu.activity_at', `(k + 1 - $1::int)`);
      await client.query(
        `insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, seen_at, notified_at, search_vector)
         select mu.id,
                case when k % 2 = 0 then mu.candidate_id else mu.company_id end,
                case when k % 2 = 0 then mu.company_id else mu.candidate_id end,
                mu.job_id,
                'Message ' || k || ': ${CAPACITY_TEXT}',
                null,
                ${created},
                case when mu.id % 5 = 1 and k = $1::int - 1 then null else ${shiftMinute(`(${created})`, '1')} end,
                $2,
                to_tsvector('simple', 'message ' || k || ' ' || $3::text)
         from messenger_users mu, lateral generate_series(0, $1::int - 1 + 0 * mu.id) as k`,
        [m, now, CAPACITY_DOCUMENT],
      );
    },
  });

  return {
    users: n,
    recruiters: population.recruiters,
    conversations,
    messages: conversations * m,
    jobs,
    seedSeconds: (performance.now() - started) / 1000,
  };
};
