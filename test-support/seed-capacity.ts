import { createHmac } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { sha256 } from '../src/server/lib/crypto.js';
import { seededPasswordHash, type ScaleDatabase } from './seed-scale.js';

/**
 * The population of the capacity benchmark: recruiters holding many conversations and candidates
 * holding a few, built by a pure function of its options (a seeded PRNG), so the seeding process and
 * every load-generator process derive the same users, conversations and tokens without shipping
 * hundreds of thousands of rows over IPC.
 *
 * Users are laid out in one order that interleaves the roles in proportion (a recruiter whenever the
 * candidates placed so far hold more conversation ends than the recruiters), and each candidate's
 * partners are drawn from the first `partnerPool` recruiters that still have room: a prefix of the
 * order (the first N users, one benchmark step) then holds both roles in the final ratio and most
 * of its users' partners, as a growing site would.
 */

/** mulberry32: small, fast, good enough for load schedules; the same seed gives the same stream. */
export const createRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

/** A whole number in [min, max], uniformly. */
export const uniformInt = (random: () => number, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1));

export interface CapacityPopulationOptions {
  users: number;
  seed: number;
  /** Conversations per recruiter, drawn uniformly from [min, max]. */
  recruiterConversations: [number, number];
  /** Conversations per candidate, drawn uniformly from [min, max]. */
  candidateConversations: [number, number];
  /** Recruiters a candidate's partners are drawn from (≥ the candidates' maximum). */
  partnerPool: number;
  messagesPerConversation: number;
}

export interface CapacityPopulation {
  options: CapacityPopulationOptions;
  users: number;
  recruiters: number;
  candidates: number;
  /** 1 for a recruiter (role `company`), by user index; user id = index + 1. */
  recruiter: Uint8Array;
  /** Conversation c (id c + 1): its candidate's and company's user index, and its job id. */
  conversationCandidate: Int32Array;
  conversationCompany: Int32Array;
  conversationJob: Int32Array;
  /** Conversations of user u: `userConversations[userStart[u] … userStart[u + 1])` (conversation indexes). */
  userStart: Int32Array;
  userConversations: Int32Array;
  /** Job j (id j + 1) belongs to the recruiter with this user index. */
  jobCompany: Int32Array;
  /** Last activity of each conversation (epoch ms), spread over the 90 days before BASE_TIME. */
  conversationActivity: Float64Array;
}

export const userIdOf = (index: number): number => index + 1;
export const conversationIdOf = (index: number): number => index + 1;

const BASE_TIME = Date.parse('2026-11-01T00:00:00.000Z');
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Builds the population (≈ 0.1 s for 20,000 users and 330,000 conversations). */
export const buildCapacityPopulation = (options: CapacityPopulationOptions): CapacityPopulation => {
  const random = createRandom(options.seed);
  const [rMin, rMax] = options.recruiterConversations;
  const [cMin, cMax] = options.candidateConversations;
  const n = options.users;
  const recruiter = new Uint8Array(n);
  const degree = new Int32Array(n);
  // Interleave: a recruiter whenever the candidates so far hold more conversation ends than the
  // recruiters, so every prefix has the roles in the ratio that makes the two sums agree.
  let recruiterEnds = 0;
  let candidateEnds = 0;
  const recruiterOrder: number[] = [];
  for (let i = 0; i < n; i += 1) {
    if (recruiterEnds <= candidateEnds) {
      recruiter[i] = 1;
      degree[i] = uniformInt(random, rMin, rMax);
      recruiterEnds += degree[i]!;
      recruiterOrder.push(i);
    } else {
      degree[i] = uniformInt(random, cMin, cMax);
      candidateEnds += degree[i]!;
    }
  }

  // Jobs: one per started 250 conversations of a recruiter.
  const jobStart = new Int32Array(n + 1);
  const jobCompanyList: number[] = [];
  for (let i = 0; i < n; i += 1) {
    jobStart[i] = jobCompanyList.length;
    if (recruiter[i]) {
      const jobs = 1 + Math.floor(degree[i]! / 250);
      for (let j = 0; j < jobs; j += 1) jobCompanyList.push(i);
    }
  }
  jobStart[n] = jobCompanyList.length;

  // Pair each candidate with distinct recruiters from the pool of the first open ones.
  const remaining = Int32Array.from(degree);
  const pool: number[] = [];
  let nextRecruiter = 0;
  const refill = () => {
    while (pool.length < options.partnerPool && nextRecruiter < recruiterOrder.length)
      pool.push(recruiterOrder[nextRecruiter++]!);
  };
  const candidates: number[] = [];
  const companies: number[] = [];
  const jobsOf: number[] = [];
  for (let i = 0; i < n; i += 1) {
    if (recruiter[i]) continue;
    refill();
    const want = Math.min(degree[i]!, pool.length);
    // Partial Fisher–Yates over the pool: `want` distinct recruiters.
    for (let k = 0; k < want; k += 1) {
      const pick = k + Math.floor(random() * (pool.length - k));
      [pool[k], pool[pick]] = [pool[pick]!, pool[k]!];
      const company = pool[k]!;
      const jobs = jobStart[company + 1]! - jobStart[company]!;
      candidates.push(i);
      companies.push(company);
      jobsOf.push(jobStart[company]! + Math.floor(random() * jobs) + 1);
      remaining[company] = remaining[company]! - 1;
    }
    for (let k = pool.length - 1; k >= 0; k -= 1) if (remaining[pool[k]!]! <= 0) pool.splice(k, 1);
  }

  const conversations = candidates.length;
  const conversationCandidate = Int32Array.from(candidates);
  const conversationCompany = Int32Array.from(companies);
  const conversationJob = Int32Array.from(jobsOf);
  const conversationActivity = new Float64Array(conversations);
  for (let c = 0; c < conversations; c += 1)
    // at hour ≥ messagesPerConversation and minute ≤ 58 of its day: the messages before it (an hour
    // apart) and their seen times (a minute after) are then the same text with other digits
    conversationActivity[c] =
      BASE_TIME -
      (1 + Math.floor(random() * 90)) * DAY +
      uniformInt(random, Math.min(23, options.messagesPerConversation), 23) * HOUR +
      uniformInt(random, 0, 58) * MINUTE +
      Math.floor(random() * MINUTE);

  const count = new Int32Array(n);
  for (let c = 0; c < conversations; c += 1) {
    count[conversationCandidate[c]!] = count[conversationCandidate[c]!]! + 1;
    count[conversationCompany[c]!] = count[conversationCompany[c]!]! + 1;
  }
  const userStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i += 1) userStart[i + 1] = userStart[i]! + count[i]!;
  const fill = Int32Array.from(userStart.subarray(0, n));
  const userConversations = new Int32Array(conversations * 2);
  for (let c = 0; c < conversations; c += 1) {
    const a = conversationCandidate[c]!;
    const b = conversationCompany[c]!;
    userConversations[fill[a]!] = c;
    fill[a] = fill[a]! + 1;
    userConversations[fill[b]!] = c;
    fill[b] = fill[b]! + 1;
  }

  return {
    options,
    users: n,
    recruiters: recruiterOrder.length,
    candidates: n - recruiterOrder.length,
    recruiter,
    conversationCandidate,
    conversationCompany,
    conversationJob,
    userStart,
    userConversations,
    jobCompany: Int32Array.from(jobCompanyList),
    conversationActivity,
  };
};

/** The user's personal access token, derived from a per-run secret (the database holds its sha256). */
export const capacityToken = (secret: string, userId: number): string =>
  `cap${userId}.${createHmac('sha256', secret).update(String(userId)).digest('base64url').slice(0, 32)}`;

/** How many conversations user `index` holds. */
export const conversationCount = (population: CapacityPopulation, index: number): number =>
  population.userStart[index + 1]! - population.userStart[index]!;

export interface CapacitySeedResult {
  users: number;
  recruiters: number;
  conversations: number;
  messages: number;
  jobs: number;
  seedSeconds: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const TEXT = 'thanks, talk soon about the role';

/**
 * Writes the population: users (no e-mail address, so the e-mail rule never mails anyone: no .eml
 * files from a benchmark), one token each, jobs, conversations with `messagesPerConversation`
 * messages alternating sides (the candidate first, one hour apart, the last one at the
 * conversation's activity time), the last message of every fifth conversation unread by its
 * receiver. Every stored message counts as already taken by the notification rule.
 *
 * SQLite: prepared statements in one transaction with the journal off for the load (WAL after).
 * PostgreSQL: `unnest` of arrays and `INSERT … SELECT`, then VACUUM ANALYZE.
 */
export const seedCapacity = async (
  bench: ScaleDatabase,
  population: CapacityPopulation,
  tokenSecret: string,
): Promise<CapacitySeedResult> => {
  const started = performance.now();
  const hash = await seededPasswordHash();
  const now = iso(Date.now());
  const expires = iso(Date.now() + 24 * HOUR);
  const m = population.options.messagesPerConversation;
  const n = population.users;
  const conversations = population.conversationCandidate.length;
  const jobs = population.jobCompany.length;
  const unreadOf = (c: number) => c % 5 === 0;
  // The last message's sender: the candidate when m is odd (k = m - 1 even).
  const lastFromCandidate = (m - 1) % 2 === 0;
  const name = (i: number) => (population.recruiter[i] ? `Recruiter ${i}` : `Candidate ${i}`);
  await bench.close();

  if (bench.dialect === 'sqlite') {
    const db = new Database(bench.location);
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -200000');
    db.pragma('foreign_keys = OFF');
    const insertUser = db.prepare(
      'insert into users (id, role, name, email, password_hash, image_url, logo, created_at) values (?, ?, ?, null, ?, ?, ?, ?)',
    );
    const insertToken = db.prepare(
      'insert into api_tokens (user_id, token_hash, name, created_at, expires_at) values (?, ?, ?, ?, ?)',
    );
    const insertJob = db.prepare(
      'insert into jobs (id, company_id, title, status, deadline, created_at) values (?, ?, ?, ?, ?, ?)',
    );
    const insertConversation = db.prepare(
      'insert into messenger_users (id, candidate_id, company_id, job_id, job_key, last_message, last_message_at, activity_at, candidate_unread, company_unread, candidate_archive, company_archive, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?)',
    );
    // Secondary indexes of the big tables are built once after the load (a sorted bulk build)
    // instead of row by row in random key order: several times faster.
    const deferred = db
      .prepare(
        `select name, sql from sqlite_master
         where type = 'index' and sql is not null and tbl_name in ('chats', 'messenger_users')`,
      )
      .all() as { name: string; sql: string }[];
    db.transaction(() => {
      for (const index of deferred) db.exec(`drop index "${index.name}"`);
      for (let i = 0; i < n; i += 1) {
        const id = userIdOf(i);
        const company = population.recruiter[i] === 1;
        insertUser.run(
          id,
          company ? 'company' : 'candidate',
          name(i),
          hash,
          company ? null : `/images/photos/c${i}.svg`,
          company ? `/images/logos/r${i}.svg` : null,
          now,
        );
        insertToken.run(id, sha256(capacityToken(tokenSecret, id)), 'capacity', now, expires);
      }
      for (let j = 0; j < jobs; j += 1)
        insertJob.run(
          j + 1,
          userIdOf(population.jobCompany[j]!),
          `Role ${j + 1}`,
          'active',
          '2027-12-31',
          now,
        );
      for (let c = 0; c < conversations; c += 1) {
        const candidateId = userIdOf(population.conversationCandidate[c]!);
        const companyId = userIdOf(population.conversationCompany[c]!);
        const jobId = population.conversationJob[c]!;
        const last = population.conversationActivity[c]!;
        const unread = unreadOf(c);
        insertConversation.run(
          c + 1,
          candidateId,
          companyId,
          jobId,
          jobId,
          `Message ${m - 1}: ${TEXT}`,
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
                'Message ' || k.value || ': ${TEXT}',
                null,
                ${at('')},
                case when mu.id % 5 = 1 and k.value = ${m} - 1 then null else ${at(`, '+1 minutes'`)} end,
                ?
         from messenger_users mu cross join k`,
      ).run(now);
      for (const index of deferred) db.exec(index.sql);
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
      // As on SQLite: the big tables' secondary indexes are built after the load (constraint
      // indexes stay: they cannot be dropped on their own).
      const { rows: deferred } = await client.query<{ name: string; sql: string }>(
        `select indexname as name, indexdef as sql from pg_indexes
         where schemaname = current_schema() and tablename in ('chats', 'messenger_users')
           and indexname not in (select conname from pg_constraint)`,
      );
      for (const index of deferred) await client.query(`drop index "${index.name}"`);
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
          `Message ${m - 1}: ${TEXT}`,
          lastFromCandidate,
        ],
      );
      // k-th message of each conversation, one hour apart, the last at the conversation's activity;
      // the series depends on the row (`0 * mu.id`), so conversations stay the outer loop: each
      // one's rows together and in order, ids in time order, without sorting a million rows.
      const created = shiftHour('mu.activity_at', `(k + 1 - $1::int)`);
      await client.query(
        `insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, seen_at, notified_at)
         select mu.id,
                case when k % 2 = 0 then mu.candidate_id else mu.company_id end,
                case when k % 2 = 0 then mu.company_id else mu.candidate_id end,
                mu.job_id,
                'Message ' || k || ': ${TEXT}',
                null,
                ${created},
                case when mu.id % 5 = 1 and k = $1::int - 1 then null else ${shiftMinute(`(${created})`, '1')} end,
                $2
         from messenger_users mu, lateral generate_series(0, $1::int - 1 + 0 * mu.id) as k`,
        [m, now],
      );
      for (const index of deferred) await client.query(index.sql);
      for (const table of ['users', 'jobs', 'messenger_users', 'chats', 'api_tokens'])
        await client.query(
          `select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 1) from ${table}))`,
        );
      await client.query('commit');
      // as autovacuum leaves a table after a bulk insert: statistics, and the visibility map
      await client.query('vacuum analyze');
    } finally {
      await client.end();
    }
  }

  return {
    users: n,
    recruiters: population.recruiters,
    conversations,
    messages: conversations * m,
    jobs,
    seedSeconds: (performance.now() - started) / 1000,
  };
};
