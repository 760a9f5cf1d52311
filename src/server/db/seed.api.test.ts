import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test-support/databases.js';
import { conversationQuery } from '../modules/messenger/conversation-query.repository.js';
import { DEMO_ACCOUNTS } from './demo-mode.js';
import { seedDemo } from './seed.js';

const dialect = inject('database');

describe(`database and demo seed (${dialect})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => database.drop());

  const counts = async () => {
    const db = database.db.kysely;
    const count = async (table: 'users' | 'jobs' | 'messenger_users' | 'chats' | 'applications') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      users: await count('users'),
      jobs: await count('jobs'),
      conversations: await count('messenger_users'),
      chats: await count('chats'),
      applications: await count('applications'),
    };
  };

  it('seeds the contract’s demo data once; seeding again changes nothing', async () => {
    expect(await seedDemo(database.db)).toBe(true);
    const first = await counts();
    expect(first.users).toBeGreaterThan(DEMO_ACCOUNTS.length);
    expect(await seedDemo(database.db)).toBe(false);
    expect(await counts()).toEqual(first);
  });

  it('matches the contract: who talks to whom, archived and unread', async () => {
    const db = database.db.kysely;
    const rows = await conversationQuery(db)
      .select(['cand.email as candidate', 'comp.email as company'])
      .execute();
    const sara = rows.filter((row) => row.candidate === 'candidate@example.com');
    const withAcme = sara.find((row) => row.company === 'company@example.com');
    expect(withAcme?.job_status).toBe('active');
    expect(withAcme?.candidate_unread).toBeGreaterThan(0);
    const dates = await db
      .selectFrom('chats')
      .select('created_at')
      .where('messenger_user_id', '=', withAcme?.id ?? 0)
      .execute();
    expect(new Set(dates.map((row) => row.created_at.slice(0, 10))).size).toBeGreaterThanOrEqual(2);
    expect(sara.find((row) => row.company === 'company2@example.com')?.job_status).not.toBe(
      'active',
    );
    expect(sara.find((row) => row.company === 'owner@example.com')?.job_id).toBeNull();
    expect(sara.some((row) => row.candidate_archive === 1)).toBe(true);
    const acme = rows.filter((row) => row.company === 'company@example.com');
    expect(acme.some((row) => row.company_archive === 1)).toBe(true);
    const robotics = acme
      .filter((row) => row.job_id === withAcme?.job_id)
      .map((row) => row.candidate);
    expect(robotics.sort()).toEqual(['candidate2@example.com', 'candidate@example.com']);
    expect(
      rows.some(
        (row) =>
          row.candidate === 'candidate2@example.com' && row.company === 'company2@example.com',
      ),
    ).toBe(false);
  });

  it('gives the demo company and the demo candidate saved replies that use the variables', async () => {
    const rows = await database.db.kysely
      .selectFrom('message_templates as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['u.email', 't.name', 't.body'])
      .execute();
    const company = rows.filter((row) => row.email === 'company@example.com');
    expect(company.length).toBeGreaterThanOrEqual(2);
    const invitation = company.find((row) => /interview/i.test(row.name));
    for (const variable of ['{{candidate.first_name}}', '{{job.title}}', '{{me.name}}'])
      expect(invitation?.body).toContain(variable);
    expect(rows.filter((row) => row.email === 'candidate@example.com')).toHaveLength(1);
  });

  it('keeps counters consistent with the stored messages', async () => {
    const db = database.db.kysely;
    const rows = await db
      .selectFrom('messenger_users')
      .select(['id', 'candidate_id', 'company_id', 'candidate_unread', 'company_unread'])
      .execute();
    for (const row of rows) {
      const unseen = await db
        .selectFrom('chats')
        .select(['receiver_id'])
        .where('messenger_user_id', '=', row.id)
        .where('seen_at', 'is', null)
        .execute();
      expect(row.candidate_unread).toBe(
        unseen.filter((chat) => chat.receiver_id === row.candidate_id).length,
      );
      expect(row.company_unread).toBe(
        unseen.filter((chat) => chat.receiver_id === row.company_id).length,
      );
    }
  });

  it.runIf(dialect === 'sqlite')(
    'runs SQLite in WAL mode with foreign keys enforced and temporary data in memory',
    async () => {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(
        database.db.kysely,
      );
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const keys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(
        database.db.kysely,
      );
      expect(keys.rows[0]?.foreign_keys).toBe(1);
      // 2 = MEMORY: no temporary file opened per statement (with every descriptor taken by sockets,
      // that open failed and the call answered 503)
      const temp = await sql<{ temp_store: number }>`pragma temp_store`.execute(database.db.kysely);
      expect(temp.rows[0]?.temp_store).toBe(2);
    },
  );

  it('refuses a chat for a conversation that does not exist (foreign keys)', async () => {
    await expect(
      database.db.kysely
        .insertInto('chats')
        .values({
          messenger_user_id: 999_999,
          sender_id: 1,
          receiver_id: 2,
          job_id: null,
          message: 'x',
          client_id: null,
          created_at: new Date().toISOString(),
          seen_at: null,
        })
        .execute(),
    ).rejects.toThrow();
  });
});
