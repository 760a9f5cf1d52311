import { randomUUID } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { InitialDataResponse } from '../../../shared/conversations.js';
import type { GetMessageResponse } from '../../../shared/messages.js';
import { initialDataResponseSchema } from '../../../shared/conversations.js';
import { getMessageResponseSchema, sendMessageResponseSchema } from '../../../shared/messages.js';
import type { MessengerUser } from '../../../shared/models.js';
import { paths } from '../../../shared/paths.js';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/database.js';
import { ACME, HARBOR, NILE, OMAR, SARA } from '../../../../test-support/accounts.js';
import {
  createTestApp,
  signIn,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';

const dialect = inject('database');

describe(`messaging calls (${dialect})`, () => {
  let ctx: TestContext;
  let sara: Session; // candidate@
  let omar: Session; // candidate2@
  let acme: Session; // company@
  let nile: Session; // company2@
  let harbor: Session; // owner@

  beforeAll(async () => {
    ctx = await createTestApp(dialect);
    sara = await signIn(ctx.app, SARA.email);
    omar = await signIn(ctx.app, OMAR.email);
    acme = await signIn(ctx.app, ACME.email);
    nile = await signIn(ctx.app, NILE.email);
    harbor = await signIn(ctx.app, HARBOR.email);
  });
  afterAll(async () => ctx.close());

  const initial = async (session: Session, jobId?: number | string) => {
    const response = await session.call(
      'GET',
      `${paths.initialData}${jobId === undefined ? '' : `?job_id=${jobId}`}`,
    );
    expect(response.statusCode).toBe(200);
    return initialDataResponseSchema.parse(response.json());
  };
  const conversationWith = async (
    session: Session,
    otherName: string,
    jobTitle?: string | null,
  ) => {
    const { messengerUsers } = await initial(session);
    const found = messengerUsers.find(
      (item) =>
        (item.company.user.name === otherName || item.candidate.user.name === otherName) &&
        (jobTitle === undefined || (item.job?.title ?? null) === jobTitle),
    );
    if (!found) throw new Error(`no conversation with ${otherName}`);
    return found;
  };
  const otherParty = (session: Session, item: MessengerUser) =>
    session.user.role === 'candidate' ? item.company_id : item.candidate_id;
  const send = (
    session: Session,
    item: MessengerUser,
    message: string,
    extra: Record<string, unknown> = {},
  ) =>
    session.call('POST', paths.sendMessage, {
      receiver_id: otherParty(session, item),
      messenger_user: item.id,
      job_id: item.job_id,
      message,
      ...extra,
    });
  const freshUnread = async (conversationId: number, receiverId: number) => {
    const row = await ctx.database.db.kysely
      .selectFrom('chats')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('messenger_user_id', '=', conversationId)
      .where('receiver_id', '=', receiverId)
      .where('seen_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };

  describe('initial data', () => {
    it('gives a candidate its conversations (active and archived, newest first) and the jobs they are about', async () => {
      const data = await initial(sara);
      expect(data.auth).toEqual({
        id: sara.user.id,
        role: 'candidate',
        name: 'Sara Haddad',
        suspended: false,
      });
      const names = data.messengerUsers.map((item) => item.company.user.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'Acme Robotics',
          'Nile Software',
          'Blue Harbor Logistics',
          'Cedar Health',
        ]),
      );
      expect(data.messengerUsers.every((item) => item.candidate_id === sara.user.id)).toBe(true);
      expect(data.messengerUsers.filter((item) => item.candidate_archive === 1)).toHaveLength(1);
      const times = data.messengerUsers.map((item) => item.last_message_at ?? '');
      expect([...times].sort().reverse()).toEqual(times);
      const acmeRow = data.messengerUsers.find(
        (item) => item.company.user.name === 'Acme Robotics',
      );
      expect(acmeRow).toMatchObject({
        job: { title: 'Senior Robotics Engineer', status: 'active' },
        is_seen_messages_count: 2,
        company: { logo: expect.stringMatching(/^\/images\/logos\/.+\.svg$/) },
      });
      expect(acmeRow?.last_message_time).toMatch(/ago|now/);
      const noJob = data.messengerUsers.find(
        (item) => item.company.user.name === 'Blue Harbor Logistics',
      );
      expect(noJob).toMatchObject({ job_id: null, job: null });
      expect(data.jobs.map((job) => job.title).sort()).toEqual(
        ['Clinical Data Analyst', 'Frontend Developer', 'Senior Robotics Engineer'].sort(),
      );
      expect(data.jobs.find((job) => job.title === 'Frontend Developer')?.status).not.toBe(
        'active',
      );
    });

    it('gives a company its own jobs and its conversations with candidates, including the archived one', async () => {
      const data = await initial(acme);
      expect(data.auth.role).toBe('company');
      expect(data.jobs.map((job) => job.title).sort()).toEqual(
        ['Embedded Software Developer', 'QA Technician', 'Senior Robotics Engineer'].sort(),
      );
      const names = data.messengerUsers.map((item) => item.candidate.user.name);
      expect(names).toEqual(expect.arrayContaining(['Sara Haddad', 'Omar Khalil']));
      expect(data.messengerUsers.filter((item) => item.company_archive === 1)).toHaveLength(1);
      const sameJob = data.messengerUsers.filter(
        (item) => item.job?.title === 'Senior Robotics Engineer',
      );
      expect(sameJob.map((item) => item.candidate.user.name).sort()).toEqual([
        'Omar Khalil',
        'Sara Haddad',
      ]);
    });

    it('treats an owner as a company', async () => {
      const data = await initial(harbor);
      expect(data.auth.role).toBe('owner');
      expect(data.jobs.map((job) => job.title)).toEqual(['Logistics Coordinator']);
      expect(data.messengerUsers.every((item) => item.company_id === harbor.user.id)).toBe(true);
      expect(data.messengerUsers.length).toBe(2);
    });

    it('filters by job, and an empty job_id means all jobs', async () => {
      const all = await initial(acme, '');
      const job = all.jobs.find((item) => item.title === 'Senior Robotics Engineer');
      const filtered = await initial(acme, job?.id);
      expect(filtered.messengerUsers.length).toBe(2);
      expect(filtered.messengerUsers.every((item) => item.job_id === job?.id)).toBe(true);
      expect(all.messengerUsers.length).toBeGreaterThan(filtered.messengerUsers.length);
      const bad = await acme.call('GET', `${paths.initialData}?job_id=abc`);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toHaveProperty('job_id');
    });
  });

  describe('get message', () => {
    it('returns date groups oldest first, the receiver and job, and marks the viewer’s unread as seen', async () => {
      const item = await conversationWith(sara, 'Acme Robotics');
      expect(item.is_seen_messages_count).toBe(2);
      const response = await sara.call('POST', paths.getMessage, {
        receiver_id: item.company_id,
        job_id: item.job_id,
      });
      expect(response.statusCode).toBe(200);
      const body = getMessageResponseSchema.parse(response.json());
      expect(body.messages.length).toBeGreaterThanOrEqual(2);
      const dates = body.messages.map((group) => group.date);
      expect([...dates].sort()).toEqual(dates);
      const ids = body.messages.flatMap((group) => group.chats.map((chat) => chat.id));
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(body.receiver).toMatchObject({ id: item.company_id, user: { name: 'Acme Robotics' } });
      expect(body.receiver.logo).toMatch(/\.svg$/);
      expect(body.receiverJob).toMatchObject({
        title: 'Senior Robotics Engineer',
        status: 'active',
      });
      expect(body.application_group).toBeNull();
      expect(body.has_more).toBe(false);
      expect(body.messengerUser.is_seen_messages_count).toBe(0);
      const chat = body.messages[0]?.chats[0];
      expect(chat?.messaging_time).toMatch(/^\d{1,2}:\d{2} (AM|PM)$/);
      expect(chat?.messaging_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(chat?.sender.name).toBeTruthy();
      expect((await conversationWith(sara, 'Acme Robotics')).is_seen_messages_count).toBe(0);
      expect(await freshUnread(item.id, sara.user.id)).toBe(0);
    });

    it('gives a company viewer the candidate’s photo and application group', async () => {
      const item = await conversationWith(acme, 'Sara Haddad', 'Senior Robotics Engineer');
      const body = (
        await acme.call('POST', paths.getMessage, {
          receiver_id: item.candidate_id,
          job_id: item.job_id,
        })
      ).json();
      expect(body.application_group).toEqual({ id: expect.any(Number), name: 'Interview' });
      expect(body.receiver).toMatchObject({
        id: item.candidate_id,
        user: { name: 'Sara Haddad', image_url: expect.stringMatching(/\.svg$/) },
      });
    });

    it('opens a conversation without a job (job_id null)', async () => {
      const item = await conversationWith(sara, 'Blue Harbor Logistics');
      const response = await sara.call('POST', paths.getMessage, {
        receiver_id: item.company_id,
        job_id: null,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().receiverJob).toBeNull();
    });

    it('pages back through history with before / limit / has_more', async () => {
      const item = await conversationWith(nile, 'Sara Haddad');
      for (let index = 0; index < 7; index += 1)
        expect((await send(nile, item, `page message ${index}`)).statusCode).toBe(200);
      const first = (
        await nile.call('POST', paths.getMessage, {
          receiver_id: item.candidate_id,
          job_id: item.job_id,
          limit: 4,
        })
      ).json() as GetMessageResponse;
      const firstIds = first.messages.flatMap((group) => group.chats.map((chat) => chat.id));
      expect(firstIds).toHaveLength(4);
      expect(first.has_more).toBe(true);
      const oldest = firstIds[0];
      const second = (
        await nile.call('POST', paths.getMessage, {
          receiver_id: item.candidate_id,
          job_id: item.job_id,
          limit: 4,
          before: oldest,
        })
      ).json() as GetMessageResponse;
      const secondIds = second.messages.flatMap((group) => group.chats.map((chat) => chat.id));
      expect(secondIds).toHaveLength(4);
      expect(Math.max(...secondIds)).toBeLessThan(oldest ?? 0);
      expect(second.has_more).toBe(true);
      const third = (
        await nile.call('POST', paths.getMessage, {
          receiver_id: item.candidate_id,
          job_id: item.job_id,
          limit: 4,
          before: secondIds[0],
        })
      ).json() as GetMessageResponse;
      expect(third.messages.flatMap((group) => group.chats)).toHaveLength(1);
      expect(third.has_more).toBe(false);
      const tooMany = await nile.call('POST', paths.getMessage, {
        receiver_id: item.candidate_id,
        job_id: item.job_id,
        limit: 101,
      });
      expect(tooMany.statusCode).toBe(422);
      expect(tooMany.json().errors).toHaveProperty('limit');
    });

    it('answers 404 when the viewer has no such conversation', async () => {
      const response = await omar.call('POST', paths.getMessage, {
        receiver_id: nile.user.id,
        job_id: null,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBeTruthy();
    });
  });

  describe('send message', () => {
    it('stores a trimmed message, updates preview, time and the receiver’s unread count, and returns both', async () => {
      const item = await conversationWith(omar, 'Acme Robotics');
      const before = await conversationWith(acme, 'Omar Khalil', 'Senior Robotics Engineer');
      const response = await send(omar, item, '   Hello from Omar \n ');
      expect(response.statusCode).toBe(200);
      const body = sendMessageResponseSchema.parse(response.json());
      expect(body.message).toMatchObject({
        message: 'Hello from Omar',
        sender_id: omar.user.id,
        receiver_id: item.company_id,
        job_id: item.job_id,
        messenger_user_id: item.id,
        sender: { id: omar.user.id, name: 'Omar Khalil' },
        seen_at: null,
      });
      expect(body.messengerUser.last_message).toBe('Hello from Omar');
      expect(body.messengerUser.is_seen_messages_count).toBe(0);
      const after = await conversationWith(acme, 'Omar Khalil', 'Senior Robotics Engineer');
      expect(after.is_seen_messages_count).toBe(before.is_seen_messages_count + 1);
      expect(after.last_message_at).toBe(body.message.created_at);
      expect(after.is_seen_messages_count).toBe(await freshUnread(item.id, item.company_id));
    });

    it('keeps at most 100 characters in the preview and accepts exactly 5,000 characters', async () => {
      const item = await conversationWith(omar, 'Blue Harbor Logistics');
      const long = 'x'.repeat(5000);
      const response = await send(omar, item, long);
      expect(response.statusCode).toBe(200);
      expect(response.json().message.message).toHaveLength(5000);
      expect(response.json().messengerUser.last_message).toHaveLength(100);
    });

    it('refuses empty, blank and over-long messages with 422 naming the field, storing nothing', async () => {
      const item = await conversationWith(omar, 'Acme Robotics');
      const count = async () =>
        Number(
          (
            await ctx.database.db.kysely
              .selectFrom('chats')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      for (const message of ['', '   \n  ', 'y'.repeat(5001)]) {
        const response = await send(omar, item, message);
        expect(response.statusCode).toBe(422);
        expect(response.json().errors).toHaveProperty('message');
      }
      const missing = await omar.call('POST', paths.sendMessage, {
        receiver_id: item.company_id,
        job_id: item.job_id,
      });
      expect(missing.statusCode).toBe(422);
      expect(Object.keys(missing.json().errors)).toEqual(
        expect.arrayContaining(['messenger_user', 'message']),
      );
      const wrongType = await omar.call('POST', paths.sendMessage, {
        receiver_id: 'abc',
        messenger_user: item.id,
        job_id: item.job_id,
        message: 42,
      });
      expect(wrongType.statusCode).toBe(422);
      expect(Object.keys(wrongType.json().errors)).toEqual(
        expect.arrayContaining(['receiver_id', 'message']),
      );
      const wrongReceiver = await send(omar, item, 'hi', { receiver_id: nile.user.id });
      expect(wrongReceiver.statusCode).toBe(422);
      expect(wrongReceiver.json().errors).toHaveProperty('receiver_id');
      const wrongJob = await send(omar, item, 'hi', { job_id: null });
      expect(wrongJob.statusCode).toBe(422);
      expect(wrongJob.json().errors).toHaveProperty('job_id');
      const unknown = await send(omar, { ...item, id: 999_999 }, 'hi');
      expect(unknown.statusCode).toBe(404);
      expect(await count()).toBe(before);
    });

    it('stores a message once however often the same client_id is resent', async () => {
      const item = await conversationWith(sara, 'Blue Harbor Logistics');
      const clientId = randomUUID();
      const responses = await Promise.all(
        [1, 2, 3].map(() => send(sara, item, 'only once please', { client_id: clientId })),
      );
      const again = await send(sara, item, 'only once please', { client_id: clientId });
      const ids = [...responses, again].map((response) => {
        expect(response.statusCode).toBe(200);
        return response.json().message.id as number;
      });
      expect(new Set(ids).size).toBe(1);
      const rows = await ctx.database.db.kysely
        .selectFrom('chats')
        .select('id')
        .where('client_id', '=', clientId)
        .execute();
      expect(rows).toHaveLength(1);
      expect(await freshUnread(item.id, item.company_id)).toBe(
        (await conversationWith(harbor, 'Sara Haddad')).is_seen_messages_count,
      );
      const badId = await send(sara, item, 'x', { client_id: 'not-a-uuid' });
      expect(badId.statusCode).toBe(422);
      expect(badId.json().errors).toHaveProperty('client_id');
    });

    it('answers a resent client_id with the message stored then, even after the conversation closed', async () => {
      const item = await conversationWith(sara, 'Blue Harbor Logistics');
      const clientId = randomUUID();
      const first = await send(sara, item, 'sent before the erasure', { client_id: clientId });
      expect(first.statusCode).toBe(200);
      const erase = (at: string | null) =>
        ctx.database.db.kysely
          .updateTable('users')
          .set({ erased_at: at })
          .where('id', '=', item.company_id)
          .execute();
      await erase(new Date().toISOString());
      try {
        const resent = await send(sara, item, 'sent before the erasure', { client_id: clientId });
        expect(resent.statusCode, resent.body).toBe(200);
        expect(resent.json().message.id).toBe(first.json().message.id);
        const fresh = await send(sara, item, 'a new message', { client_id: randomUUID() });
        expect(fresh.statusCode).toBe(422);
      } finally {
        await erase(null);
      }
    });

    it('returns a conversation archived by the receiver to its active list', async () => {
      const archived = await conversationWith(acme, 'Lina Farouk');
      expect(archived.company_archive).toBe(1);
      const lina = await signIn(ctx.app, 'lina@example.com');
      const item = await conversationWith(lina, 'Acme Robotics');
      expect((await send(lina, item, 'Any news?')).statusCode).toBe(200);
      expect((await conversationWith(acme, 'Lina Farouk')).company_archive).toBe(0);
    });

    it('returns a conversation archived by the sender to the sender’s active list', async () => {
      const item = await conversationWith(omar, 'Blue Harbor Logistics');
      const archived = await omar.call('POST', paths.archive(item.id));
      expect(archived.json().messengerUser.candidate_archive).toBe(1);
      const response = await send(omar, item, 'Following up on my application');
      expect(response.statusCode).toBe(200);
      // the answer and what the list says afterwards: back in the active list, for both sides
      expect(response.json().messengerUser).toMatchObject({
        candidate_archive: 0,
        company_archive: 0,
      });
      expect(await conversationWith(omar, 'Blue Harbor Logistics')).toMatchObject({
        candidate_archive: 0,
      });
    });

    it('stores 200 concurrent sends from both sides exactly once, with unread counts equal to a fresh count', async () => {
      const candidateView = await conversationWith(omar, 'Blue Harbor Logistics');
      const companyView = await conversationWith(harbor, 'Omar Khalil');
      const before = await ctx.database.db.kysely
        .selectFrom('chats')
        .select('id')
        .where('messenger_user_id', '=', candidateView.id)
        .execute();
      const jobs = Array.from({ length: 200 }, (_, index) => {
        const fromCandidate = index % 2 === 0;
        return send(
          fromCandidate ? omar : harbor,
          fromCandidate ? candidateView : companyView,
          `burst ${index}`,
          {
            client_id: randomUUID(),
          },
        );
      });
      const responses = await Promise.all(jobs);
      const statuses = responses.map((response) => response.statusCode);
      expect(
        statuses.filter((status) => status !== 200),
        responses.find((response) => response.statusCode !== 200)?.body,
      ).toEqual([]);
      const rows = await ctx.database.db.kysely
        .selectFrom('chats')
        .select(['message'])
        .where('messenger_user_id', '=', candidateView.id)
        .where('message', 'like', 'burst %')
        .execute();
      expect(rows).toHaveLength(200);
      expect(new Set(rows.map((row) => row.message)).size).toBe(200);
      expect(before.length + 200).toBe(
        (
          await ctx.database.db.kysely
            .selectFrom('chats')
            .select('id')
            .where('messenger_user_id', '=', candidateView.id)
            .execute()
        ).length,
      );
      const candidateSide = await conversationWith(omar, 'Blue Harbor Logistics');
      const companySide = await conversationWith(harbor, 'Omar Khalil');
      expect(candidateSide.is_seen_messages_count).toBe(
        await freshUnread(candidateView.id, omar.user.id),
      );
      expect(companySide.is_seen_messages_count).toBe(
        await freshUnread(candidateView.id, harbor.user.id),
      );
      expect(candidateSide.is_seen_messages_count).toBe(100);
    });
  });

  describe('unseen, archive and unarchive', () => {
    it('marks the viewer’s unread messages as seen (with the CSRF header, as a state change)', async () => {
      const item = await conversationWith(acme, 'Omar Khalil', 'Senior Robotics Engineer');
      expect(item.is_seen_messages_count).toBeGreaterThan(0);
      const noCsrf = await acme.call('GET', paths.unseen(item.id), undefined, {
        'x-xsrf-token': '',
      });
      expect(noCsrf.statusCode).toBe(419);
      const response = await acme.call('GET', paths.unseen(item.id));
      expect(response.statusCode).toBe(200);
      expect(response.json().messengerUser).toMatchObject({
        id: item.id,
        is_seen_messages_count: 0,
      });
      expect(await freshUnread(item.id, acme.user.id)).toBe(0);
    });

    it('archives and unarchives on the viewer’s own flag only', async () => {
      const item = await conversationWith(sara, 'Nile Software');
      const archived = await sara.call('POST', paths.archive(item.id));
      expect(archived.statusCode).toBe(200);
      expect(archived.json().messengerUser).toMatchObject({
        candidate_archive: 1,
        company_archive: 0,
      });
      expect((await conversationWith(nile, 'Sara Haddad')).company_archive).toBe(0);
      const restored = await sara.call('POST', paths.unarchive(item.id));
      expect(restored.json().messengerUser).toMatchObject({ candidate_archive: 0 });
      const companyArchive = await nile.call('POST', paths.archive(item.id));
      expect(companyArchive.json().messengerUser).toMatchObject({
        candidate_archive: 0,
        company_archive: 1,
      });
      expect((await nile.call('POST', '/user/messenger/999999/archive')).statusCode).toBe(404);
    });
  });

  describe('authorization matrix: nobody reaches another user’s conversation', () => {
    it('refuses every call on a conversation of others, for candidate, company and owner, and leaks nothing', async () => {
      // Sara ↔ Acme belongs to neither Omar (candidate), Nile (company) nor Blue Harbor (owner).
      const target = await conversationWith(sara, 'Acme Robotics');
      const secret = `secret ${randomUUID()}`;
      expect((await send(sara, target, secret)).statusCode).toBe(200);
      const targetState = await ctx.database.db.kysely
        .selectFrom('messenger_users')
        .selectAll()
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      const chatCount = (
        await ctx.database.db.kysely
          .selectFrom('chats')
          .select('id')
          .where('messenger_user_id', '=', target.id)
          .execute()
      ).length;

      for (const outsider of [omar, nile, harbor]) {
        // get message looks up the viewer's own conversation with receiver_id about job_id: whatever it
        // finds (Omar has his own with Acme about this job) is never the target.
        for (const receiverId of [target.company_id, target.candidate_id]) {
          const response = await outsider.call('POST', paths.getMessage, {
            receiver_id: receiverId,
            job_id: target.job_id,
          });
          expect([200, 403, 404]).toContain(response.statusCode);
          expect(response.body).not.toContain(secret);
          if (response.statusCode === 200)
            expect(response.json().messengerUser.id).not.toBe(target.id);
          else expect(response.body).not.toContain('Sara Haddad');
        }
        const calls = [
          outsider.call('POST', paths.sendMessage, {
            receiver_id: target.company_id,
            messenger_user: target.id,
            job_id: target.job_id,
            message: 'intrusion',
          }),
          outsider.call('POST', paths.sendMessage, {
            receiver_id: target.candidate_id,
            messenger_user: target.id,
            job_id: target.job_id,
            message: 'intrusion',
          }),
          outsider.call('GET', paths.unseen(target.id)),
          outsider.call('POST', paths.archive(target.id)),
          outsider.call('POST', paths.unarchive(target.id)),
        ];
        for (const response of await Promise.all(calls)) {
          expect([403, 404]).toContain(response.statusCode);
          expect(response.body).not.toContain(secret);
          expect(response.body).not.toContain('Sara Haddad');
        }
        const list = await initial(outsider);
        expect(list.messengerUsers.some((item) => item.id === target.id)).toBe(false);
        expect(JSON.stringify(list)).not.toContain(secret);
      }
      const after = await ctx.database.db.kysely
        .selectFrom('messenger_users')
        .selectAll()
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual(targetState);
      expect(
        (
          await ctx.database.db.kysely
            .selectFrom('chats')
            .select('id')
            .where('messenger_user_id', '=', target.id)
            .execute()
        ).length,
      ).toBe(chatCount);
    });
  });

  describe('bad input', () => {
    it('answers 401 without the application key or with a wrong one, and without a session', async () => {
      for (const url of [paths.initialData, `${paths.initialData}?key=wrong`]) {
        const response = await ctx.app.inject({ method: 'GET', url, cookies: sara.cookies });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ message: 'Invalid application key.' });
      }
      const anonymous = await ctx.app.inject({
        method: 'GET',
        url: `${paths.initialData}?key=test-app-key`,
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('answers 419 for a cookie-authenticated change without or with a wrong CSRF token', async () => {
      const item = await conversationWith(sara, 'Acme Robotics');
      const body = {
        receiver_id: item.company_id,
        messenger_user: item.id,
        job_id: item.job_id,
        message: 'csrf',
      };
      const without = await ctx.app.inject({
        method: 'POST',
        url: `${paths.sendMessage}?key=test-app-key`,
        cookies: sara.cookies,
        payload: body,
      });
      expect(without.statusCode).toBe(419);
      expect(without.json()).toEqual({ message: 'CSRF token mismatch.' });
      const wrong = await sara.call('POST', paths.sendMessage, body, {
        'x-xsrf-token': 'forged',
      });
      expect(wrong.statusCode).toBe(419);
      const undecodable = await sara.call('POST', paths.sendMessage, body, {
        'x-xsrf-token': '%E0',
      });
      expect(undecodable.statusCode).toBe(419);
      const viaMeta = await ctx.app.inject({
        method: 'POST',
        url: `${paths.sendMessage}?key=test-app-key`,
        cookies: sara.cookies,
        headers: { 'x-csrf-token': sara.csrf },
        payload: body,
      });
      expect(viaMeta.statusCode).toBe(200);
    });

    it('answers 400 for malformed JSON or a non-object body, 413 over 64 KiB', async () => {
      const malformed = await sara.call('POST', paths.getMessage, '{"receiver_id": 1,', {
        'content-type': 'application/json',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toMatch(/JSON/);
      const array = await sara.call('POST', paths.getMessage, '[1,2]', {
        'content-type': 'application/json',
      });
      expect(array.statusCode).toBe(400);
      const nullBody = await sara.call('POST', paths.getMessage, 'null', {
        'content-type': 'application/json',
      });
      expect(nullBody.statusCode).toBe(400);
      const huge = await sara.call(
        'POST',
        paths.sendMessage,
        JSON.stringify({ message: 'z'.repeat(70_000) }),
        { 'content-type': 'application/json' },
      );
      expect(huge.statusCode).toBe(413);
      expect(huge.json().message).toBeTruthy();
    });

    const chatCount = async () =>
      Number(
        (
          await ctx.database.db.kysely
            .selectFrom('chats')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('answers 422 naming the field for ids of 2^31 and more, in bodies, routes and queries', async () => {
      const item = await conversationWith(omar, 'Acme Robotics');
      const before = await chatCount();
      for (const big of [2 ** 31, 2 ** 31 + 1, 2 ** 32, 2 ** 53, 1e21]) {
        for (const field of ['receiver_id', 'messenger_user', 'job_id']) {
          const response = await send(omar, item, 'hi', { [field]: big });
          expect(response.statusCode, `${field}=${big}`).toBe(422);
          expect(Object.keys(response.json().errors)).toEqual([field]);
        }
        for (const body of [
          { receiver_id: big, job_id: null },
          { receiver_id: item.company_id, job_id: big },
          { receiver_id: item.company_id, job_id: item.job_id, before: big },
        ]) {
          const response = await omar.call('POST', paths.getMessage, body);
          expect(response.statusCode, JSON.stringify(body)).toBe(422);
        }
      }
      const big = 2 ** 31;
      for (const [method, url] of [
        ['GET', paths.unseen(big)],
        ['POST', paths.archive(big)],
        ['POST', paths.unarchive(big)],
        // A literal path: an id of 23 digits, written out as the client would send it.
        ['GET', `/user/send/message/unseen/99999999999999999999999`],
      ] as const) {
        const response = await omar.call(method, url);
        expect(response.statusCode, url).toBe(422);
        expect(Object.keys(response.json().errors)).toEqual(['id']);
      }
      const query = await omar.call('GET', `${paths.initialData}?job_id=${big}`);
      expect(query.statusCode).toBe(422);
      expect(Object.keys(query.json().errors)).toEqual(['job_id']);
      // The largest id is valid: not found, not an error.
      const largest = await omar.call('POST', paths.archive(2 ** 31 - 1));
      expect(largest.statusCode).toBe(404);
      expect(await chatCount()).toBe(before);
    });

    it('answers 422 for a message holding a NUL character, storing nothing', async () => {
      const item = await conversationWith(omar, 'Acme Robotics');
      const before = await chatCount();
      for (const message of ['\u0000', 'hello\u0000world', 'x\u0000']) {
        const response = await send(omar, item, message);
        expect(response.statusCode).toBe(422);
        expect(response.json().errors).toEqual({
          message: ['The message may not contain a NUL character.'],
        });
      }
      expect(await chatCount()).toBe(before);
    });

    it('treats a message of only invisible characters as empty (422), and keeps visible text with them', async () => {
      const item = await conversationWith(omar, 'Acme Robotics');
      const before = await chatCount();
      for (const message of [
        '\u200b',
        '\u200b\u200c\u200d\u2060\ufeff',
        ' \u200e\u200f\u202a\u202e\u2066\u2069\u061c ',
        '\u00ad\u2800\u3164',
      ]) {
        const response = await send(omar, item, message);
        expect(response.statusCode, JSON.stringify(message)).toBe(422);
        expect(response.json().errors).toEqual({ message: ['The message field is required.'] });
      }
      expect(await chatCount()).toBe(before);
      const arabic = '\u200fمرحبا بك\u200f';
      const kept = await send(omar, item, arabic);
      expect(kept.statusCode).toBe(200);
      expect(kept.json().message.message).toBe(arabic);
    });

    it('answers 422 for a socket id of more than 20 digits a part, and signs 20 digits', async () => {
      const channel = `private-chat.${omar.user.id}`;
      for (const socketId of [`${'1'.repeat(21)}.1`, `1.${'9'.repeat(21)}`, '1.2.3', '.1']) {
        const auth = await omar.call('POST', paths.broadcastingAuth, {
          socket_id: socketId,
          channel_name: channel,
        });
        expect(auth.statusCode, socketId).toBe(422);
        expect(auth.json().errors).toHaveProperty('socket_id');
        const userAuth = await omar.call('POST', paths.broadcastingUserAuth, {
          socket_id: socketId,
        });
        expect(userAuth.statusCode, socketId).toBe(422);
        expect(userAuth.json().errors).toHaveProperty('socket_id');
      }
      const longest = `${'1'.repeat(20)}.${'2'.repeat(20)}`;
      const signed = await omar.call('POST', paths.broadcastingAuth, {
        socket_id: longest,
        channel_name: channel,
      });
      expect(signed.statusCode).toBe(200);
      expect(signed.json().auth).toMatch(/^[^:]+:[0-9a-f]{64}$/);
    });

    it('answers 404 with JSON for unknown routes', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/nope' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Not found.' });
    });

    it('sets the security headers on every response', async () => {
      for (const response of [
        await ctx.app.inject({ method: 'GET', url: paths.config }),
        await ctx.app.inject({ method: 'GET', url: '/nope' }),
        await sara.call('GET', paths.initialData),
      ]) {
        const csp = String(response.headers['content-security-policy']);
        expect(csp).toContain("script-src 'self'");
        expect(csp).not.toContain('unsafe-inline');
        expect(csp).toContain("frame-ancestors 'self'");
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['referrer-policy']).toBeTruthy();
      }
    });

    it('publishes the client configuration, built from PUBLIC_URL whatever the Host header says', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: paths.config,
        headers: { host: 'evil.example:6666' },
      });
      expect(response.headers['cache-control']).toMatch(/max-age/);
      expect(response.json()).toMatchObject({
        key: 'test-app-key',
        locales: ['en', 'ar'],
        fallbackLocale: 'en',
        broadcaster: {
          key: ctx.config.pusher.key,
          cluster: 'mt1',
          wsHost: '127.0.0.1',
          wsPort: 3000,
          authEndpoint: paths.broadcastingAuth,
        },
        // the page offers Edit and Delete for as long as the server accepts them
        edit_window_seconds: ctx.config.editWindowMs / 1000,
      });
    });
  });
});

describe(`limits and outages (${dialect})`, () => {
  it('answers a send although the broadcaster never answers: the message is stored, the reply is not held', async () => {
    const ctx = await createTestApp(dialect);
    const stalled = {
      ...ctx.realtime,
      broadcaster: { publish: () => new Promise<void>(() => undefined) },
    };
    const { app } = await buildApp({ config: ctx.config, db: ctx.database.db, realtime: stalled });
    try {
      const omar = await signIn(app, OMAR.email);
      const list = (await omar.call('GET', paths.initialData)).json() as InitialDataResponse;
      const item = list.messengerUsers[0];
      if (!item) throw new Error('no conversation');
      const response = await omar.call('POST', paths.sendMessage, {
        receiver_id: item.company_id,
        messenger_user: item.id,
        job_id: item.job_id,
        message: 'into the void',
      });
      expect(response.statusCode).toBe(200);
      const stored = await ctx.database.db.kysely
        .selectFrom('chats')
        .select('id')
        .where('message', '=', 'into the void')
        .execute();
      expect(stored.map((row) => row.id)).toEqual([response.json().message.id]);
    } finally {
      await app.close();
      await ctx.close();
    }
  });

  it('answers 429 with Retry-After when a user sends faster than the limit, storing only what was accepted', async () => {
    const ctx = await createTestApp(dialect, { SEND_RATE_BURST: '5', SEND_RATE_PER_SECOND: '0.1' });
    try {
      const omar = await signIn(ctx.app, OMAR.email);
      const list = (await omar.call('GET', paths.initialData)).json() as InitialDataResponse;
      const item = list.messengerUsers[0];
      if (!item) throw new Error('no conversation');
      const statuses: number[] = [];
      let retryAfter: string | undefined;
      for (let index = 0; index < 8; index += 1) {
        const response = await omar.call('POST', paths.sendMessage, {
          receiver_id: item.company_id,
          messenger_user: item.id,
          job_id: item.job_id,
          message: `rate ${index}`,
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) retryAfter = String(response.headers['retry-after']);
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.slice(5)).toEqual([429, 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      const stored = await ctx.database.db.kysely
        .selectFrom('chats')
        .select('id')
        .where('message', 'like', 'rate %')
        .execute();
      expect(stored).toHaveLength(5);
    } finally {
      await ctx.close();
    }
  });

  it('limits each conversation on its own: a burst in one does not stop the sender in another', async () => {
    const ctx = await createTestApp(dialect, {
      SEND_RATE_CONVERSATION_BURST: '3',
      SEND_RATE_CONVERSATION_PER_SECOND: '0.1',
    });
    try {
      const acme = await signIn(ctx.app, ACME.email);
      const list = (await acme.call('GET', paths.initialData)).json() as InitialDataResponse;
      const [first, second] = list.messengerUsers;
      if (!first || !second) throw new Error('two conversations needed');
      const send = (item: typeof first, text: string) =>
        acme.call('POST', paths.sendMessage, {
          receiver_id: item.candidate_id,
          messenger_user: item.id,
          job_id: item.job_id,
          message: text,
        });
      const statuses: number[] = [];
      for (let index = 0; index < 5; index += 1)
        statuses.push((await send(first, `conversation burst ${index}`)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect((await send(second, 'elsewhere')).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });

  it('answers 503 when the database cannot be reached, and keeps serving', async () => {
    const ctx = await createTestApp(dialect);
    const token = (
      await ctx.app.inject({
        method: 'POST',
        url: paths.tokens,
        payload: { email: ACME.email, password: 'password' },
      })
    ).json().token as string;
    const call = () =>
      ctx.app.inject({
        method: 'GET',
        url: `${paths.initialData}?key=test-app-key`,
        headers: { authorization: `Bearer ${token}` },
      });
    try {
      if (dialect === 'postgres') {
        // The same app code against a server that does not answer.
        const unreachable = openDatabase('postgres://postgres@127.0.0.1:1/test');
        // The generated broadcaster secret lives in the database, which is unreachable here.
        const config = { ...ctx.config, pusher: { ...ctx.config.pusher, secret: 'test-secret' } };
        const { app } = await buildApp({ config, db: unreachable });
        const response = await app.inject({
          method: 'GET',
          url: `${paths.initialData}?key=test-app-key`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.statusCode).toBe(503);
        expect(response.json().message).toMatch(/unavailable/i);
        expect((await app.inject({ method: 'GET', url: paths.config })).statusCode).toBe(200);
        await app.close();
        await unreachable.destroy();
      } else {
        // Another process holds the embedded database's write lock past the busy timeout.
        const file = ctx.database.url.slice('sqlite:'.length);
        const blocker = new SqliteDatabase(file);
        blocker.exec('BEGIN EXCLUSIVE');
        try {
          const response = await ctx.app.inject({
            method: 'POST',
            url: '/user/messenger/1/archive?key=test-app-key',
            headers: { authorization: `Bearer ${token}` },
          });
          expect(response.statusCode).toBe(503);
          expect(response.json().message).toMatch(/unavailable/i);
        } finally {
          blocker.exec('ROLLBACK');
          blocker.close();
        }
      }
      expect((await call()).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });
});
