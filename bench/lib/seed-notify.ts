import { sql } from 'kysely';
import { randomToken, sha256 } from '../../src/server/lib/crypto.js';
import { chunks, type BenchDatabase } from './database.js';

export interface NotifySeedOptions {
  /** Companies that send; each has a job and a personal access token. */
  senders: number;
  /** Candidates with an e-mail address (e-mails on: no settings row), one conversation each. */
  receivers: number;
}

/** One send target: the conversation of one receiver, with its sender's token. */
export interface NotifyTarget {
  conversationId: number;
  jobId: number;
  senderId: number;
  senderToken: string;
  receiverId: number;
}

export interface NotifySeed {
  targets: NotifyTarget[];
  seedSeconds: number;
}

/**
 * `senders` companies (ids 1…s, job i of company i) and `receivers` candidates (ids s+1…s+r, each with an
 * e-mail address), receiver k in one conversation with sender (k mod s)+1 about that sender's job.
 * Explicit ids, multi-row inserts in one transaction (under a second for 10,000 receivers on either
 * database); PostgreSQL sequences moved past them. No passwords (tokens only): no scrypt.
 */
export const seedNotify = async (
  bench: BenchDatabase,
  options: NotifySeedOptions,
): Promise<NotifySeed> => {
  const started = performance.now();
  const { senders: s, receivers: r } = options;
  const now = new Date().toISOString();
  const expiresAt = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
  const tokens = Array.from({ length: s }, (_, i) => `notify${i + 1}.${randomToken(16)}`);
  const db = bench.db.kysely;
  await db.transaction().execute(async (trx) => {
    const users = [
      ...Array.from({ length: s }, (_, i) => ({
        id: i + 1,
        role: 'company' as const,
        name: `Sender ${i}`,
        email: `sender${i}@notify.test`,
        password_hash: null,
        image_url: null,
        logo: `/images/logos/s${i}.svg`,
        created_at: now,
      })),
      ...Array.from({ length: r }, (_, k) => ({
        id: s + k + 1,
        role: 'candidate' as const,
        name: `Receiver ${k}`,
        email: `receiver${k}@notify.test`,
        password_hash: null,
        image_url: null,
        logo: null,
        created_at: now,
      })),
    ];
    for (const batch of chunks(users, 1000)) await trx.insertInto('users').values(batch).execute();
    await trx
      .insertInto('api_tokens')
      .values(
        tokens.map((token, i) => ({
          user_id: i + 1,
          token_hash: sha256(token),
          created_at: now,
          expires_at: expiresAt,
        })),
      )
      .execute();
    await trx
      .insertInto('jobs')
      .values(
        Array.from({ length: s }, (_, i) => ({
          id: i + 1,
          company_id: i + 1,
          title: `Notify job ${i}`,
          status: 'active',
          deadline: '2027-12-31',
          created_at: now,
        })),
      )
      .execute();
    const conversations = Array.from({ length: r }, (_, k) => ({
      id: k + 1,
      candidate_id: s + k + 1,
      company_id: (k % s) + 1,
      job_id: (k % s) + 1,
      job_key: (k % s) + 1,
      activity_at: now,
      created_at: now,
    }));
    for (const batch of chunks(conversations, 1000))
      await trx.insertInto('messenger_users').values(batch).execute();
    if (bench.dialect === 'postgres') {
      for (const table of ['users', 'jobs', 'messenger_users'])
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(
          trx,
        );
    }
  });
  if (bench.dialect === 'postgres') await sql`analyze`.execute(db);
  return {
    targets: Array.from({ length: r }, (_, k) => ({
      conversationId: k + 1,
      jobId: (k % s) + 1,
      senderId: (k % s) + 1,
      senderToken: tokens[k % s] as string,
      receiverId: s + k + 1,
    })),
    seedSeconds: (performance.now() - started) / 1000,
  };
};
